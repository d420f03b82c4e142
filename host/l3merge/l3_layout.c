/*
** l3_layout.c — what a dfx_outputs directory holds: rankN/dK captures, which dK
** of each rank belongs to the selected dispatch, and the refusals (duplicated
** ranks, asymmetric dK sets, sidecars naming another group, a node namespace,
** ranks on different host clock domains).
*/
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "l3.h"
#include "sl_mem.h"
#include "sl_base.h"
#include "sl_l3_dirs.h"

static void format_set(char *buf, size_t len, const long *v, int n) {
  size_t at = 0;
  buf[0] = 0;
  for (int i = 0; i < n && at + 16 < len; i++) at += (size_t)snprintf(buf + at, len - at, "%sd%ld", i ? "," : "", v[i]);
  if (!n) snprintf(buf, len, "none");
}

/* rankN/dK for every rank by the dK name (the compatibility selector). */
static int pick_by_name(l3_run *run, long sets[][64], const int *nsets, long want) {
  for (size_t i = 1; i < run->n; i++) {
    int same = nsets[i] == nsets[0] && !memcmp(sets[i], sets[0], (size_t)nsets[0] * sizeof sets[0][0]);
    if (!same) {
      char a[256], b[256];
      format_set(a, sizeof a, sets[0], nsets[0]);
      format_set(b, sizeof b, sets[i], nsets[i]);
      sl_error(run->o.root, "asymmetric local capture indexes: rank%d has %s, rank%d has %s "
                            "(refusing to guess pairings; select with --dispatch-id RUN_ID:TASK_SLOT)",
               run->ranks[0].rank, a, run->ranks[i].rank, b);
      return -1;
    }
  }
  int found = 0;
  for (int k = 0; k < nsets[0]; k++) found |= sets[0][k] == want;
  if (!found) {
    char a[256];
    format_set(a, sizeof a, sets[0], nsets[0]);
    sl_error(run->o.root, "no d%ld in the ranks (they have %s)", want, a);
    return -1;
  }
  for (size_t i = 0; i < run->n; i++) run->ranks[i].dnum = (int)want;
  return 0;
}

/* rankN/dK whose dispatch_identity.json names run_id:task_slot. */
static int pick_by_identity(l3_run *run, long sets[][64], const int *nsets, long long rid, long long slot) {
  for (size_t i = 0; i < run->n; i++) {
    l3_rank *r = &run->ranks[i];
    int hits = 0;
    for (int k = 0; k < nsets[i]; k++) {
      char rel[96];
      snprintf(rel, sizeof rel, "rank%d/d%ld/dispatch_identity.json", r->rank, sets[i][k]);
      char *p = sl_path_join(run->o.root, rel);
      l3_identity id;
      int rc = l3_read_identity(p, &id);
      sl_mem_free(p);
      if (rc) return -1;
      if (id.present && id.run_id == rid && id.task_slot == slot) r->dnum = (int)sets[i][k], hits++;
    }
    if (hits != 1) {
      sl_error(run->o.root, "rank%d: %s dK/dispatch_identity.json names run_id:task_slot %lld:%lld", r->rank,
               hits ? "more than one" : "no", rid, slot);
      return -1;
    }
  }
  return 0;
}

static int select_dispatch(l3_run *run) {
  static long sets[L3_MAX_RANKS][64];
  int nsets[L3_MAX_RANKS];
  for (size_t i = 0; i < run->n; i++) {
    char rel[32];
    snprintf(rel, sizeof rel, "rank%d", run->ranks[i].rank);
    char *p = sl_path_join(run->o.root, rel);
    int rc = sl_l3_list_numbered(p, "d", sets[i], 64, &nsets[i]);
    sl_mem_free(p);
    if (rc) return -1;
  }
  if (run->o.dispatch_id) {
    long long rid, slot;
    char tail;
    if (sscanf(run->o.dispatch_id, "%lld:%lld%c", &rid, &slot, &tail) != 2) {
      sl_error(NULL, "convert: --dispatch-id expects RUN_ID:TASK_SLOT (got '%s')", run->o.dispatch_id);
      return -2;
    }
    snprintf(run->dispatch_label, sizeof run->dispatch_label, "%lld:%lld", rid, slot);
    return pick_by_identity(run, sets, nsets, rid, slot);
  }
  long want = nsets[0] ? sets[0][0] : 0;
  if (run->o.dispatch && (want = sl_l3_numbered(run->o.dispatch, "d")) < 0) {
    sl_error(NULL, "convert: --dispatch expects dN (got '%s')", run->o.dispatch);
    return -2;
  }
  snprintf(run->dispatch_label, sizeof run->dispatch_label, "d%ld", want);
  return pick_by_name(run, sets, nsets, want);
}

/* Paths and identity of each selected capture; the sidecars must agree. */
static int read_selected(l3_run *run) {
  for (size_t i = 0; i < run->n; i++) {
    l3_rank *r = &run->ranks[i];
    char rel[96];
    snprintf(rel, sizeof rel, "rank%d/d%d", r->rank, r->dnum);
    r->dir = sl_path_join(run->o.root, rel);
    r->identity_path = sl_path_join(r->dir, "dispatch_identity.json");
    r->records = sl_l3_records_path(r->dir, run->o.records);
    if (!r->records) {
      sl_error(r->dir, "rank %d: no chip_swimlane_records.%s (was the run captured with "
                       "--enable-chip-swimlane?)", r->rank, run->o.records ? run->o.records : "json or .pb");
      return -1;
    }
    if (l3_read_identity(r->identity_path, &r->id)) return -1;
    if (r->id.present && (r->id.chip_rank != r->rank || r->id.local_capture_index != r->dnum)) {
      sl_error(r->identity_path, "rank %d: the identity names chip_rank %lld, local capture d%lld, but sits "
                                 "under rank%d/d%d", r->rank, (long long)r->id.chip_rank,
               (long long)r->id.local_capture_index, r->rank, r->dnum);
      return -1;
    }
    if (l3_read_capture_meta(r)) return -1;
  }
  return 0;
}

/* Members of one submit group share run_id:task_slot and have distinct group_index. */
static int check_group(const l3_run *run) {
  const l3_rank *a = &run->ranks[0];
  for (size_t i = 0; i < run->n; i++) {
    const l3_rank *r = &run->ranks[i];
    if (!r->id.present || !a->id.present) continue;
    int grouped = r->id.group_size > 1 || a->id.group_size > 1;
    if (grouped && (r->id.run_id != a->id.run_id || r->id.task_slot != a->id.task_slot)) {
      sl_error(r->identity_path, "rank %d: names group %lld:%lld, rank %d's %s names %lld:%lld — the selected "
                                 "paths belong to different parent groups (select with --dispatch-id)",
               r->rank, (long long)r->id.run_id, (long long)r->id.task_slot, a->rank, a->identity_path,
               (long long)a->id.run_id, (long long)a->id.task_slot);
      return -1;
    }
    for (size_t j = 0; grouped && j < i; j++)
      if (run->ranks[j].id.present && run->ranks[j].id.group_index == r->id.group_index) {
        sl_error(r->identity_path, "rank %d: group_index %lld is also rank %d's", r->rank,
                 (long long)r->id.group_index, run->ranks[j].rank);
        return -1;
      }
  }
  return 0;
}

static int check_domains(const l3_run *run) {
  for (size_t i = 1; i < run->n; i++)
    if (strcmp(run->ranks[i].domain, run->ranks[0].domain)) {
      sl_error(run->ranks[i].records, "rank %d reports host_clock_domain_id '%s', rank %d '%s': ranks on "
                                      "different hosts are refused, not spliced (--cross-host merges them "
                                      "through the dispatch windows)",
               run->ranks[i].rank, run->ranks[i].domain, run->ranks[0].rank, run->ranks[0].domain);
      return -1;
    }
  return 0;
}

int l3_layout(l3_run *run) {
  long ids[L3_MAX_RANKS];
  int n = 0;
  if (!sl_l3_is_dir(run->o.root)) return sl_error(run->o.root, "not a directory"), -1;
  if (sl_l3_list_numbered(run->o.root, "node", ids, L3_MAX_RANKS, &n)) return -1;
  if (n) {
    sl_error(run->o.root, "node%ld/: a NETWORK1/L4 layout; merging is limited to one same-host L3 worker "
                          "until the layout carries a node namespace", ids[0]);
    return -1;
  }
  if (sl_l3_list_numbered(run->o.root, "rank", ids, L3_MAX_RANKS, &n)) return -1;
  if (!n) return sl_error(run->o.root, "no rankN/ directories (not an L3 dfx_outputs directory)"), -1;
  run->n = (size_t)n;
  for (int i = 0; i < n; i++) run->ranks[i].rank = (int)ids[i];
  int rc = select_dispatch(run);
  if (rc) return rc;
  if (read_selected(run) || check_group(run) || (!run->o.cross_host && check_domains(run))) return -1;
  return 0;
}

void l3_run_free(l3_run *run) {
  for (size_t i = 0; i < run->n; i++) {
    l3_rank *r = &run->ranks[i];
    sl_mem_free(r->dir);
    sl_mem_free(r->records);
    sl_mem_free(r->identity_path);
    sl_mem_free(r->engine_meta);
    sl_capture_free(r->cap);
    sl_deps_free(r->deps);
    sl_namemap_free(r->names);
    sl_notes_free(&r->notes);
  }
  sl_notes_free(&run->notes);
  for (size_t i = 0; i < run->n_logs; i++) sl_hostlog_free(run->logs[i]);
  sl_mem_free(run->logs);
}

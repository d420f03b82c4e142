/*
** l0_collect.c — step 5: run the replay, write both traces, self-check.
**
** run_collect.sh builds and runs the replay under the pipe model and leaves
** insight_export/OPPROF_<stamp>/simulator/trace.json. Here the newest export is
** copied pretty-printed to <label>_trace.json, converted to
** <label>_trace_perfetto.json, and its MMAD / FIX_L0C_TO_DST counts checked.
*/
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "l0_internal.h"
#include "sl_base.h"
#include "sl_mem.h"

/* Newest insight_export/OPPROF_* /simulator/trace.json (by name: stamps sort). */
static char *find_export(const char *ws) {
  char *root = sl_path_join(ws, "insight_export");
  DIR *d = opendir(root);
  char *best = NULL, *best_name = NULL;
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (strncmp(e->d_name, "OPPROF_", 7) != 0) continue;
    char rel[512];
    snprintf(rel, sizeof rel, "%s/simulator/trace.json", e->d_name);
    char *p = sl_path_join(root, rel);
    struct stat st;
    if (p && stat(p, &st) == 0 && (!best_name || strcmp(e->d_name, best_name) > 0)) {
      sl_mem_free(best);
      sl_mem_free(best_name);
      best = p;
      best_name = sl_mem_strdup(e->d_name);
    } else {
      sl_mem_free(p);
    }
  }
  if (d) closedir(d);
  sl_mem_free(root);
  sl_mem_free(best_name);
  return best;
}

static long issued(const cJSON *trace, const char *name) {
  const cJSON *od = cJSON_GetObjectItemCaseSensitive(trace, "otherData");
  const cJSON *is = cJSON_GetObjectItemCaseSensitive(od, "issued");
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(is, name);
  return cJSON_IsNumber(v) ? (long)v->valuedouble : -1;
}

/* The timeline against the invariants any correct replay keeps (l0_verify.c). */
static int check_timeline(const cJSON *trace) {
  char err[512];
  size_t checks = 0;
  long bad = sl_l0_verify_timeline(trace, err, sizeof err, &checks);
  if (bad == 0) {
    printf(L0_PREFIX "self-check OK: timeline keeps %zu invariants (order, issue rate, cost, outstanding "
                     "limit, flags, clock)\n", checks);
    return 0;
  }
  if (bad < 0) {
    printf(L0_PREFIX "self-check: timeline not checked: %s\n", err);
    return 0;
  }
  printf(L0_PREFIX "WARNING: self-check failed: the modelled timeline breaks %ld of %zu invariants; first: %s.\n"
                   "  The pipe model is wrong for this replay. Do not draw timing conclusions.\n",
         bad, checks, err);
  return 1;
}

/* MMAD / FIX slices against the counts the task must issue (l0_expect.c). */
static int check_counts(const sl_l0_plan *p, long mmad, long fix) {
  long want_mmad, want_fix;
  char why[256];
  if (!sl_l0_expect_counts(p, &want_mmad, &want_fix, why, sizeof why)) {
    printf(L0_PREFIX "self-check: MMAD=%ld FIX_L0C_TO_DST=%ld not checked: %s\n", mmad, fix, why);
    return 0;
  }
  if (want_mmad == 0 && want_fix == 0 && mmad == 0 && fix == 0) {
    printf(L0_PREFIX "self-check: no cube work in this task (MMAD=0, FIX_L0C_TO_DST=0)\n");
    return 0;
  }
  if (mmad == want_mmad && fix == want_fix) {
    printf(L0_PREFIX "self-check OK: MMAD %ld == n_blocks %ld, FIX_L0C_TO_DST %ld == n_blocks %ld "
                     "(expected from tile shapes and args)\n", mmad, want_mmad, fix, want_fix);
    return 0;
  }
  printf(L0_PREFIX "WARNING: self-check failed: MMAD %ld (n_blocks %ld), FIX_L0C_TO_DST %ld (n_blocks %ld), "
                   "n_blocks expected from tile shapes and args.\n"
                   "  The kernel did not do the work its task describes, or the trace's tail was truncated.\n"
                   "  Do not draw timing conclusions; re-run or change n_blocks.\n",
         mmad, want_mmad, fix, want_fix);
  return 1;
}

/* Vector ops / loads / stores against the counts the task must issue (l0_expect.c). */
static int check_vector(const sl_l0_plan *p, const cJSON *trace) {
  sl_l0_vec_counts got, want;
  char why[256];
  sl_l0_count_vector(trace, &got);
  if (!sl_l0_expect_vector(p, &want, why, sizeof why)) {
    if (got.vops) printf(L0_PREFIX "self-check: VECTOR ops=%ld not checked: %s\n", got.vops, why);
    return 0;
  }
  if (got.vops == want.vops && got.loads == want.loads && got.stores == want.stores) {
    printf(L0_PREFIX "self-check OK: VECTOR ops %ld, GM->UB loads %ld, UB->GM stores %ld == expected from the "
                     "tensor shapes and UB staging\n", got.vops, got.loads, got.stores);
    return 0;
  }
  printf(L0_PREFIX "WARNING: self-check failed: VECTOR ops %ld (expected %ld), GM->UB loads %ld (expected %ld), "
                   "UB->GM stores %ld (expected %ld), expected from the tensor shapes and UB staging.\n"
                   "  The kernel did not do the work its task describes, or the trace's tail was truncated.\n",
         got.vops, want.vops, got.loads, want.loads, got.stores, want.stores);
  return 1;
}

/* The exported stream against what the replay issued: a cut export. */
static int check_export(const cJSON *trace, long mmad, long fix) {
  long got_mmad = issued(trace, "MMAD"), got_fix = issued(trace, "FIX_L0C_TO_DST");
  if (got_mmad < 0 || got_fix < 0 || (mmad == got_mmad && fix == got_fix)) return 0;
  printf(L0_PREFIX "WARNING: self-check failed: the trace holds MMAD %ld / FIX_L0C_TO_DST %ld of the %ld / %ld "
                   "the replay issued.\n  The trace's tail was truncated; re-run.\n",
         mmad, fix, got_mmad, got_fix);
  return 1;
}

int sl_l0_self_check(const sl_l0_plan *p, const cJSON *trace) {
  long mmad, fix;
  sl_l0_count_cube(trace, &mmad, &fix);
  int bad = check_timeline(trace);
  bad |= check_counts(p, mmad, fix);
  bad |= check_vector(p, trace);
  bad |= check_export(trace, mmad, fix);
  return bad;
}

int sl_l0_collect(const sl_l0_plan *p) {
  char *script = sl_path_join(p->ws, "run_collect.sh");
  char *argv[] = {(char *)"bash", script, NULL};
  int st = sl_l0_spawn(argv, NULL);
  if (st != 0) {
    if (st == 124 || st == 128 + 9 || st == 128 + 14)
      sl_error(script, "replay exceeded --max-time %g s (shrink the loop count with --set-arg)", p->max_time);
    else
      sl_error(script, "collect failed (exit %d)", st);
    sl_mem_free(script);
    return -1;
  }
  sl_mem_free(script);
  char *raw_path = find_export(p->ws);
  if (!raw_path) {
    sl_error(p->ws, "no insight_export/OPPROF_*/simulator/trace.json produced — check msprof_collect/collect.log");
    return -1;
  }
  char name[1024];
  snprintf(name, sizeof name, "%s_trace.json", p->label);
  char *dest = sl_path_join(p->ws, name);
  snprintf(name, sizeof name, "%s_trace_perfetto.json", p->label);
  char *perf = sl_path_join(p->ws, name);
  int rc = -1;
  size_t len;
  char *text = sl_l0_read_file(raw_path, &len);
  cJSON *doc = text ? cJSON_ParseWithLength(text, len) : NULL, *pf = NULL;
  if (!doc) {
    if (text) sl_error(raw_path, "exported trace is not valid JSON; no Perfetto variant written");
    goto out;
  }
  if (sl_l0_write_json(dest, doc) != 0) goto out;
  char err[256];
  pf = sl_l0_to_perfetto(doc, err, sizeof err);
  if (!pf) {
    sl_error(raw_path, "%s", err);
    goto out;
  }
  if (sl_l0_write_json(perf, pf) != 0) goto out;
  int bad = sl_l0_self_check(p, doc);
  printf(L0_PREFIX "DONE. trace.json (Insight) -> %s\n", dest);
  printf(L0_PREFIX "      perfetto-friendly  -> %s\n", perf);
  rc = bad ? -1 : 0; /* the traces stay for a look; the exit status says not to trust them */
out:
  cJSON_Delete(doc);
  cJSON_Delete(pf);
  sl_mem_free(text);
  sl_mem_free(raw_path);
  sl_mem_free(dest);
  sl_mem_free(perf);
  return rc;
}

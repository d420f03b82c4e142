/*
** sl_collector_reconcile.c — the loss accounting check: for every pool kind
** (all four, AICore included) collected + dropped must equal the device's
** total, and no active buffer may still hold records (a missing flush). A
** host_build_graph capture's host pools (host orchestrator records, upload
** steps) are held to the same rule: kept + dropped == what the host attempted.
** Drops are legitimate (pools too small for the host's pace) and are reported
** as warnings; any other difference is a silent loss and an error.
*/
#include "sl_base.h"
#include "sl_collector_internal.h"

#include <inttypes.h>
#include <string.h>

static const char *const pool_names[SL_BUF_KIND_COUNT] = {
    [SL_BUF_AICPU_TASK] = "aicpu_task", [SL_BUF_SCHED_PHASE] = "sched_phase",
    [SL_BUF_ORCH_PHASE] = "orch_phase", [SL_BUF_AICORE_TASK] = "aicore_task"};

const unsigned sl_coll_pool_order[SL_BUF_KIND_COUNT] = {SL_BUF_AICORE_TASK, SL_BUF_AICPU_TASK, SL_BUF_SCHED_PHASE,
                                                        SL_BUF_ORCH_PHASE};
const char *sl_coll_pool_name(unsigned kind) { return kind < SL_BUF_KIND_COUNT ? pool_names[kind] : "?"; }

static const char *const pool_knobs[SL_BUF_KIND_COUNT] = {
    [SL_BUF_AICPU_TASK] = "prof_buffers_per_core", [SL_BUF_SCHED_PHASE] = "sched_buffers_per_thread",
    [SL_BUF_ORCH_PHASE] = "orch_buffers_per_thread", [SL_BUF_AICORE_TASK] = "aicore_buffers_per_core"};

/* Host pool names: the capture sections they fill (schema/records.lua Capture). */
static const char *const host_pool_names[SL_COLL_HOST_POOLS] = {"host_orchestrator_phases", "host_device_uploads"};

static int host_pools_present(const sl_collector *c) { return c->has_host && c->host.host_mode; }

/* The host pools' accounts from sl_collector_set_host; 1 when one does not balance. */
static int reconcile_host(sl_collector *c) {
  memset(c->host_acct, 0, sizeof c->host_acct);
  if (!host_pools_present(c)) return 0;
  const sl_coll_host *h = &c->host;
  const uint64_t total[] = {h->rec_attempted, h->upload_attempted}, dropped[] = {h->rec_dropped, h->upload_dropped},
                 kept[] = {h->nrecs, h->nuploads};
  int bad = 0;
  for (int k = 0; k < SL_COLL_HOST_POOLS; k++) {
    c->host_acct[k] = (sl_pool_account){total[k], kept[k], dropped[k], 0};
    if (kept[k] + dropped[k] != total[k]) {
      sl_notes_add(&c->notes, 0, "collector", "%s: collected %" PRIu64 " + dropped %" PRIu64 " != total %" PRIu64, host_pool_names[k],
               kept[k], dropped[k], total[k]);
      bad = 1;
    } else if (dropped[k]) {
      sl_notes_add(&c->notes, 1, "collector", "%s: %" PRIu64 " of %" PRIu64 " records dropped on the host (host pool too small: "
                           "raise --pool-records)", host_pool_names[k], dropped[k], total[k]);
    }
  }
  return bad;
}

size_t sl_coll_pool_rows(const sl_collector *c, sl_coll_pool_row rows[SL_BUF_KIND_COUNT + SL_COLL_HOST_POOLS]) {
  size_t n = 0;
  for (unsigned j = 0; j < SL_BUF_KIND_COUNT; j++)
    rows[n++] = (sl_coll_pool_row){pool_names[sl_coll_pool_order[j]], c->acct[sl_coll_pool_order[j]]};
  if (host_pools_present(c))
    for (int k = 0; k < SL_COLL_HOST_POOLS; k++) rows[n++] = (sl_coll_pool_row){host_pool_names[k], c->host_acct[k]};
  return n;
}

int sl_collector_reconcile(sl_collector *c) {
  if (!c) return -1;
  if (!c->dp) {
    c->reconciled = c->balanced = 1;
    return 0;
  }
  sl_collector_read_metadata(c);
  sl_devprof *dp = c->dp;
  int balanced = 1;
  c->uncommitted = c->bad_entries = 0;
  for (int s = 0; s < c->nshards; s++) {
    c->uncommitted += c->shards[s].uncommitted;
    c->bad_entries += c->shards[s].bad_entries;
  }
  for (unsigned k = 0; k < SL_BUF_KIND_COUNT; k++) {
    sl_pool_account a = {0};
    int n = sl_devprof_pool_count(dp, k);
    for (int i = 0; i < n; i++) {
      const sl_active_head *h = &c->hv->pools[k][i].head; /* complete after stop */
      uint64_t total = sl_ld_acq32(&h->total_record_count);
      uint64_t dropped = sl_ld_acq32(&h->dropped_record_count);
      uint64_t collected = 0;
      for (int s = 0; s < c->nshards; s++) collected += c->shards[s].collected[k][i];
      uint64_t unflushed = sl_coll_unflushed(c, k, i);
      if (collected + dropped != total) {
        sl_notes_add(&c->notes, 0, "collector", "%s pool %d: collected %" PRIu64 " + dropped %" PRIu64 " != total %" PRIu64
                              " (unaccounted %" PRId64 ")",
                 pool_names[k], i, collected, dropped, total, (int64_t)(total - collected - dropped));
        balanced = 0;
      }
      if (unflushed) {
        sl_notes_add(&c->notes, 0, "collector", "%s pool %d: %" PRIu64 " records left in an active buffer "
                              "(device flush missing; not recovered)", pool_names[k], i, unflushed);
        balanced = 0;
      }
      a.total += total;
      a.dropped += dropped;
      a.collected += collected;
      a.unflushed += unflushed;
    }
    if (a.dropped)
      sl_notes_add(&c->notes, 1, "collector", "%s: %" PRIu64 " of %" PRIu64 " records dropped on the device "
                           "(pools too small for the host's pace: raise %s, or enable back-pressure)",
              pool_names[k], a.dropped, a.total, pool_knobs[k]);
    c->acct[k] = a;
  }
  if (reconcile_host(c)) balanced = 0;
  if (c->uncommitted)
    sl_notes_add(&c->notes, 0, "collector", "%" PRIu64 " AICore record slots were handed out but never committed", c->uncommitted);
  if (c->bad_entries) {
    sl_notes_add(&c->notes, 0, "collector", "%" PRIu64 " malformed ready-queue entries ignored", c->bad_entries);
    balanced = 0;
  }
  c->reconciled = 1;
  c->balanced = balanced;
  return balanced ? 0 : 1;
}

sl_pool_account sl_collector_account(const sl_collector *c, unsigned kind) {
  sl_pool_account zero = {0};
  if (!c || kind >= SL_BUF_KIND_COUNT) return zero;
  return c->acct[kind];
}

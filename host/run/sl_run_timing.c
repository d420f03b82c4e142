/*
** sl_run_timing.c — what `swimlane run` says about time without a capture: the
** orchestrator's cold-path device log (run window + cumulative g_orch_*_cycle
** counters) in the output folder, a timing summary per round (host wall, device
** wall, orchestration, scheduling, the dominant submit sub-step), and the
** selective task-timing slots (device_wall.task_slot_<N>, min / median / max over
** rounds).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sl_base.h"
#include "sl_collector.h"
#include "sl_phases.h"
#include "sl_run_internal.h"
#include "sl_mem.h"

static double us(const sl_rt_timing *t, uint64_t cycles) { return (double)cycles * 1e6 / (double)t->freq_hz; }

static uint64_t span(uint64_t a, uint64_t b) { return b > a ? b - a : 0; }

int sl_run_write_device_log(const sl_rt_timing *t, const char *dir) {
  char *path = sl_path_join(dir, "device_log.txt");
  sl_outfile of;
  sl_err err = SL_ERR_INIT;
  int rc = sl_outfile_begin(&of, path, &err) == SL_OK ? 0 : -1;
  if (rc == 0) {
    FILE *f = of.fp;
    fprintf(f, "[INFO] device clock %llu Hz (simulated chip); times below in device cycles\n",
            (unsigned long long)t->freq_hz);
    fprintf(f, "[INFO] orch_start=%llu orch_end=%llu orch_cost=%llu\n", (unsigned long long)t->orch_start,
            (unsigned long long)t->orch_end, (unsigned long long)span(t->orch_start, t->orch_end));
    for (int k = 0; k < SL_ORCH_STEPS; k++)
      fprintf(f, "[INFO] g_orch_%s_cycle=%llu\n", sl_rt_orch_step_name(k), (unsigned long long)t->orch_cycles[k]);
    fprintf(f, "[INFO] orch_submits=%llu\n", (unsigned long long)t->submits);
    rc = sl_outfile_end(&of, &err) == SL_OK ? 0 : -1;
  }
  if (rc) (void)sl_err_report(&err);
  sl_mem_free(path);
  return rc;
}

/* host_build_graph: the host builds the graph, uploads it, then the device runs it, so
** the summary names those steps (upload steps by their schema names, host_phases)
** instead of the AICPU orchestrator's sub-steps, which TMR runs on the device. */
static void print_hbg(const sl_rt_timing *t, const sl_rt *rt, double host_wall_us, const char *prefix) {
  const sl_rt_upload *u;
  size_t nu = sl_rt_uploads(rt, &u);
  double step[SL_HOST_PHASE_COUNT] = {0}, upload = 0;
  for (size_t i = 0; i < nu; i++) {
    double d = (double)span(u[i].start_ns, u[i].end_ns) / 1e3;
    if (u[i].kind >= 0 && u[i].kind < SL_HOST_PHASE_COUNT) step[u[i].kind] += d;
    upload += d;
  }
  printf("swimlane: timing: %shost wall %.1f us, host orchestration %.1f us, upload %.1f us, device wall %.1f us "
         "(scheduling %.1f us)\n",
         prefix, host_wall_us, us(t, span(t->orch_start, t->orch_end)), upload, us(t, span(t->run_start, t->run_end)),
         us(t, span(t->sched_start, t->sched_end)));
  int top = 0;
  printf("swimlane: timing: %s%llu submits on the host, upload steps", prefix, (unsigned long long)t->submits);
  for (int k = 0; k < SL_HOST_PHASE_COUNT; k++) {
    printf(" %s %.1f us%s", sl_host_phase_name(k), step[k], k + 1 < SL_HOST_PHASE_COUNT ? "," : "");
    if (step[k] > step[top]) top = k;
  }
  printf("; %s dominates the upload (%.0f%%)\n", sl_host_phase_name(top), upload > 0 ? 100.0 * step[top] / upload : 0.0);
}

void sl_run_print_timing(const sl_rt_timing *t, const sl_rt *rt, double host_wall_us, int round, int rounds) {
  char prefix[32] = "";
  if (rounds > 1) snprintf(prefix, sizeof prefix, "round %d: ", round + 1);
  if (sl_rt_get_runtime(rt) == SL_RT_HBG) {
    print_hbg(t, rt, host_wall_us, prefix);
    return;
  }
  uint64_t sub = 0;
  int top = 0;
  for (int k = 0; k < SL_ORCH_STEPS; k++) {
    sub += t->orch_cycles[k];
    if (t->orch_cycles[k] > t->orch_cycles[top]) top = k;
  }
  printf("swimlane: timing: %shost wall %.1f us, device wall %.1f us (orchestration %.1f us, scheduling %.1f us)\n",
         prefix, host_wall_us, us(t, span(t->run_start, t->run_end)), us(t, span(t->orch_start, t->orch_end)),
         us(t, span(t->sched_start, t->sched_end)));
  printf("swimlane: timing: %s%llu submits, sub-steps", prefix, (unsigned long long)t->submits);
  for (int k = 0; k < SL_ORCH_STEPS; k++) printf(" %s %.1f us%s", sl_rt_orch_step_name(k), us(t, t->orch_cycles[k]),
                                                  k + 1 < SL_ORCH_STEPS ? "," : "");
  printf("; %s dominates (%.0f%%)\n", sl_rt_orch_step_name(top),
         sub ? 100.0 * (double)t->orch_cycles[top] / (double)sub : 0.0);
}

void sl_run_slots_add(sl_run_slots *acc, const sl_rt_timing *t) {
  for (int n = 0; n < SL_RT_TIMING_SLOTS; n++) {
    if (!t->slot_set[n]) continue;
    double *v = sl_mem_array(acc->spans[n], (size_t)acc->count[n] + 1, sizeof *v);
    acc->spans[n] = v;
    v[acc->count[n]++] = us(t, t->slot_end[n] - t->slot_start[n]);
  }
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

void sl_run_slots_print(sl_run_slots *acc, int rounds) {
  for (int n = 0; n < SL_RT_TIMING_SLOTS; n++) {
    int c = acc->count[n];
    if (!c) continue;
    double *v = acc->spans[n];
    qsort(v, (size_t)c, sizeof *v, cmp_double);
    if (rounds <= 1 || c == 1)
      printf("swimlane: device_wall.task_slot_%d = %.3f us (dispatch -> finish)\n", n, v[0]);
    else
      printf("swimlane: device_wall.task_slot_%d: min %.3f us, median %.3f us, max %.3f us over %d rounds\n", n, v[0],
             c % 2 ? v[c / 2] : (v[c / 2 - 1] + v[c / 2]) / 2, v[c - 1], c);
  }
}

_Static_assert(SL_RT_TIMING_SLOTS <= SL_COLL_MAX_SLOTS, "every runtime slot fits the capture");

int sl_run_slots_to_capture(struct sl_collector *coll, const sl_rt_timing *t) {
  sl_coll_slot v[SL_RT_TIMING_SLOTS];
  size_t n = 0;
  for (int s = 0; s < SL_RT_TIMING_SLOTS; s++)
    if (t->slot_set[s]) v[n++] = (sl_coll_slot){(uint32_t)s, t->slot_start[s], t->slot_end[s]};
  return sl_collector_set_task_slots(coll, v, n);
}

void sl_run_slots_free(sl_run_slots *acc) {
  for (int n = 0; n < SL_RT_TIMING_SLOTS; n++) sl_mem_free(acc->spans[n]);
  memset(acc, 0, sizeof *acc);
}

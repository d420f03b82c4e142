/*
** bench_reader.c — read one capture the way `swimlane convert` starts: records
** (streamed), deps.json (streamed), the sibling name map, func_id resolution.
** Prints what it read so a run can be checked; the timing comes from the
** caller (/usr/bin/time). Used by run_bench.sh for the reader-only figures.
**
**   bench_reader RECORDS [DEPS] [NAME_MAP]
**   bench_reader --dump RECORDS     print the whole model as text (compare two formats)
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sl_capture.h"

static const char *str(const sl_capture *c, sl_str s) {
  const char *r = sl_str_get(c, s);
  return r ? r : "(none)";
}

static void dump(const sl_capture *c) {
  printf("level %d clock %llu base %llu tasks %zu streams %zu phases %zu orch %zu\n", c->level,
         (unsigned long long)c->clock_freq_hz, (unsigned long long)c->base_cycles, c->n_tasks, c->n_streams,
         c->n_phases, c->n_orch);
  for (size_t i = 0; i < c->n_tasks; i++) {
    const sl_task *t = &c->tasks[i];
    printf("task %llu core %u %s ring %u %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g flags %u\n",
           (unsigned long long)t->task_id, t->core_id, str(c, t->core_type), sl_task_ring_id(t), t->start_us,
           t->end_us, sl_task_duration_us(t), t->dispatch_us, t->finish_us, t->receive_us, sl_task_local_setup_us(t),
           sl_task_propagation_us(t), t->flags);
  }
  for (size_t s = 0; s < c->n_streams; s++)
    for (size_t i = c->streams[s].first; i < c->streams[s].first + c->streams[s].count; i++) {
      const sl_phase_rec *p = &c->phases[i];
      printf("T%zu %s %d %.17g %.17g it %lld tp %lld pop %lld/%lld task %llu sh %lld,%lld,%lld/%lld,%lld,%lld fl %x\n", s,
             str(c, p->phase), p->phase_id, p->start_us, p->end_us, (long long)sl_phase_loop_iter(c, p),
             (long long)sl_phase_tasks_processed(c, p), (long long)sl_phase_pop_hit(c, p),
             (long long)sl_phase_pop_miss(c, p), (unsigned long long)p->task_id,
             (long long)sl_phase_value(c, p, SL_PV_SHARED_AT_START), (long long)sl_phase_value(c, p, SL_PV_SHARED_AT_START + 1),
             (long long)sl_phase_value(c, p, SL_PV_SHARED_AT_START + 2), (long long)sl_phase_value(c, p, SL_PV_SHARED_AT_END),
             (long long)sl_phase_value(c, p, SL_PV_SHARED_AT_END + 1), (long long)sl_phase_value(c, p, SL_PV_SHARED_AT_END + 2),
             p->flags);
    }
  for (size_t t = 0; t < c->n_orch_threads; t++)
    for (size_t i = c->orch_threads[t].first; i < c->orch_threads[t].first + c->orch_threads[t].count; i++)
      printf("O%zu %lld %llu %s %.17g %.17g\n", t, (long long)c->orch[i].submit_idx,
             (unsigned long long)c->orch[i].task_id, str(c, c->orch[i].phase), c->orch[i].start_us,
             c->orch[i].end_us);
  for (size_t i = 0; i < c->n_lifecycle; i++) {
    printf("L%lld", (long long)c->lifecycle[i].aicpu_thread_id);
    for (int k = 0; k < SL_LC_FIELD_COUNT; k++) printf(" %.17g", c->lifecycle[i].us[k]);
    printf("\n");
  }
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "--dump")) {
    sl_capture *c = sl_capture_read(argv[2], NULL);
    if (!c) return 1;
    dump(c);
    sl_capture_free(c);
    return 0;
  }
  if (argc < 2) {
    fprintf(stderr, "usage: bench_reader RECORDS [DEPS] [NAME_MAP]\n");
    return 2;
  }
  sl_read_opts opts = {1};
  sl_capture *c = sl_capture_read(argv[1], &opts);
  if (!c) return 1;
  sl_deps *d = argc > 2 ? sl_deps_load(argv[2]) : NULL;
  sl_namemap *m = argc > 3 ? sl_namemap_load(argv[3]) : NULL;
  if (d) sl_capture_resolve_func_ids(c, d);
  size_t named = 0;
  for (size_t i = 0; i < c->n_tasks; i++)
    if (sl_namemap_lookup(m, c->tasks[i].func_id)) named++;
  printf("tasks %zu phases %zu orch %zu edges %zu named %zu\n", c->n_tasks, c->n_phases, c->n_orch,
         d ? d->n_edges : 0, named);
  sl_namemap_free(m);
  sl_deps_free(d);
  sl_capture_free(c);
  return 0;
}

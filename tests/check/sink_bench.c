/*
** sink_bench.c — drive a trace sink with N synthetic task slices (64 lanes,
** 3 args each), N/2 dependency flows and N/8 counter samples, the shape of a
** worker view; prints wall time. Makes the large traces for the figures in
** docs/check-trace.md:   sink_bench proto|json N OUT
** (json only when the conversion engine, which owns the JSON sink, is built).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sl_trace_sink.h"

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: sink_bench proto|json N OUT\n");
    return 2;
  }
  long n = atol(argv[2]);
  FILE *fp = fopen(argv[3], "wb");
  if (!fp || n <= 0) return 2;
  int json = !strcmp(argv[1], "json");
#ifndef SL_BENCH_HAVE_JSON
  if (json) {
    fprintf(stderr, "sink_bench: built without the JSON sink (sl_convert)\n");
    return 2;
  }
#endif
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
#ifdef SL_BENCH_HAVE_JSON
  sl_trace_sink *k = json ? sl_trace_sink_json_new(fp) : sl_trace_sink_proto_new(fp);
#else
  sl_trace_sink *k = sl_trace_sink_proto_new(fp);
#endif
  const int lanes = 64;
  sl_sink_process_name(k, 4, "Worker View");
  for (int l = 0; l < lanes; l++) {
    char name[32];
    snprintf(name, sizeof name, "AIC_%d", l);
    sl_sink_thread_name(k, 4, 10000 + 10 * l, name);
  }
  char label[64], hint[64];
  for (long i = 0; i < n; i++) {
    long l = i % lanes, j = i / lanes;
    snprintf(label, sizeof label, "QK(t%ld)", i);
    snprintf(hint, sizeof hint, "Task:t%ld, FuncId:0, CoreId:%ld", i, l);
    sl_arg args[] = {SL_ARG_S("event-hint", hint), SL_ARG_D("duration-us", 1.5),
                     SL_ARG_U("taskId", (uint64_t)i)};
    sl_slice s = {.pid = 4,
                  .tid = 10000 + 10 * l,
                  .ts = j * 2.0 + l * 0.001,
                  .dur = 1.5,
                  .name = label,
                  .cat = "event",
                  .has_id = 1,
                  .id = (uint64_t)i,
                  .args = args,
                  .nargs = 3};
    sl_sink_slice(k, &s);
    if (i % 8 == 0) {
      sl_arg q[] = {SL_ARG_I("AIC", i % 5), SL_ARG_I("AIV", i % 3)};
      sl_counter c = {.pid = 2,
                      .tid = 3999,
                      .ts = j * 2.0,
                      .name = "shared_ready_queue",
                      .cat = "queue",
                      .args = q,
                      .nargs = 2};
      sl_sink_counter(k, &c);
    }
  }
  for (long i = 0; i + lanes < n && i < n / 2; i++) {
    long a = i, b = i + lanes;
    sl_flow s = {.phase = 's',
                 .id = (uint64_t)i,
                 .name = "dependency",
                 .cat = "flow",
                 .pid = 4,
                 .tid = 10000 + 10 * (a % lanes),
                 .ts = (a / lanes) * 2.0 + (a % lanes) * 0.001,
                 .has_bind_id = 1,
                 .bind_id = (uint64_t)a};
    sl_flow f = s;
    f.phase = 'f';
    f.tid = 10000 + 10 * (b % lanes);
    f.ts = (b / lanes) * 2.0 + (b % lanes) * 0.001;
    f.bp_enclosing = 1;
    f.bind_id = (uint64_t)b;
    sl_sink_flow(k, &s);
    sl_sink_flow(k, &f);
  }
  int rc = sl_sink_finish(k);
  sl_sink_destroy(k);
  fclose(fp);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("%ld slices: %.2f s\n", n, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
  return rc == 0 ? 0 : 1;
}

/*
** bench_l0.c — how the L0 back half scales: time the pipe model, the Insight
** writer and the Perfetto transform on a synthetic cluster stream (a
** double-buffered matmul-like loop on the cube feeding both vector lanes through
** cross-core flags). Prints figures only; no thresholds.
**
**   bench_l0 [iterations]     (default 20000 loop iterations, ~14 records each)
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "l0_internal.h"
#include "sl_pipe.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void rec(sl_pipe_model *m, sl_subcore c, sl_pipe pipe, const char *mn, uint64_t work, sl_pipe peer,
                int ev) {
  sl_instr ins = {pipe, mn, work, peer, ev, __FILE__, __LINE__, NULL, 0};
  sl_pipe_record(m, c, &ins);
}

int main(int argc, char **argv) {
  long iters = argc > 1 ? atol(argv[1]) : 20000;
  sl_pipe_model m;
  sl_pipe_model_init(&m, sl_pipe_arch_find("a2a3"));
  for (int c = 0; c < SL_SUBCORE_COUNT; c++) m.core[c].ran = 1;
  for (long i = 0; i < iters; i++) {
    int ev = (int)(i & 1); /* ping-pong buffers */
    rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE2, "LOAD_GM_TO_L1", 8192, SL_PIPE_MTE2, 0);
    rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE2, "SET_FLAG", 0, SL_PIPE_MTE1, ev);
    rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE1, "WAIT_FLAG", 0, SL_PIPE_MTE2, ev);
    rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE1, "LOAD_2D", 8192, SL_PIPE_MTE1, 0);
    rec(&m, SL_SUBCORE_CUBE, SL_PIPE_MTE1, "SET_FLAG", 0, SL_PIPE_CUBE, ev);
    rec(&m, SL_SUBCORE_CUBE, SL_PIPE_CUBE, "WAIT_FLAG", 0, SL_PIPE_MTE1, ev);
    rec(&m, SL_SUBCORE_CUBE, SL_PIPE_CUBE, "MMAD", 16 * 128 * 64, SL_PIPE_CUBE, 0);
    rec(&m, SL_SUBCORE_CUBE, SL_PIPE_CUBE, "SET_FLAG", 0, SL_PIPE_FIXP, 0);
    rec(&m, SL_SUBCORE_CUBE, SL_PIPE_FIXP, "WAIT_FLAG", 0, SL_PIPE_CUBE, 0);
    rec(&m, SL_SUBCORE_CUBE, SL_PIPE_FIXP, "FIX_L0C_TO_DST", 4096, SL_PIPE_FIXP, 0);
    rec(&m, SL_SUBCORE_CUBE, SL_PIPE_FIXP, "SET_FLAG", 0, SL_PIPE_VECTOR, 2); /* -> both lanes */
    for (int v = SL_SUBCORE_VEC0; v <= SL_SUBCORE_VEC1; v++) {
      rec(&m, (sl_subcore)v, SL_PIPE_VECTOR, "WAIT_FLAG", 0, SL_PIPE_FIXP, 2);
      rec(&m, (sl_subcore)v, SL_PIPE_VECTOR, v == SL_SUBCORE_VEC0 ? "VADD" : "VMUL", 512, SL_PIPE_VECTOR, 0);
      rec(&m, (sl_subcore)v, SL_PIPE_MTE3, "STORE_UB_TO_GM", 2048, SL_PIPE_MTE3, 0);
    }
  }
  size_t n = 0;
  for (int c = 0; c < SL_SUBCORE_COUNT; c++) n += m.core[c].n;

  double t0 = now();
  if (sl_pipe_timeline(&m) != 0) {
    fprintf(stderr, "timeline: %s\n", m.error);
    return 1;
  }
  double t1 = now();
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);
  sl_pipe_write_insight(&m, fp, 0);
  fclose(fp);
  double t2 = now();
  cJSON *doc = cJSON_ParseWithLength(buf, len);
  double t3 = now();
  char err[128];
  cJSON *pf = sl_l0_to_perfetto(doc, err, sizeof err);
  double t4 = now();
  if (!doc || !pf) {
    fprintf(stderr, "transform failed\n");
    return 1;
  }
  printf("bench_l0: %zu records (%ld iterations), makespan %llu cycles\n", n, iters,
         (unsigned long long)sl_pipe_makespan(&m));
  printf("  pipe model timeline   %8.1f ms  (%.2f M records/s)\n", (t1 - t0) * 1e3, (double)n / (t1 - t0) / 1e6);
  printf("  Insight writer        %8.1f ms  (%.1f MB)\n", (t2 - t1) * 1e3, (double)len / 1e6);
  printf("  JSON parse (cJSON)    %8.1f ms\n", (t3 - t2) * 1e3);
  printf("  Perfetto transform    %8.1f ms\n", (t4 - t3) * 1e3);
  cJSON_Delete(doc);
  cJSON_Delete(pf);
  free(buf);
  sl_pipe_model_free(&m);
  return 0;
}

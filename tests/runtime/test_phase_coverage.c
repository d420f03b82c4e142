/*
** test_phase_coverage.c — every scheduler phase the schema gives the
** tensormap_and_ringbuffer AICPU scheduler (read from the generated phase table,
** not a copied list) appears in some level-4 capture `swimlane run` makes from a
** shipped workload (every .lua file of lua/workloads, default case); every inner-phase
** record lies inside a record of one of its schema parents on the same stream;
** graph workloads show ring-1 node ids on the AICores. With two host_build_graph runs
** (a2a3 P thread, a5 AICore Scheduler) every phase of the table is emitted. Scopes'
** ring ids and graph node ids reach deps.json and the trace labels; each hazards case
** has its ordering edge, with its kind, in deps.json.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "sl_run.h"
#include "sl_phases.h"
#include "sl_test_file.h"

static char tmp_root[256];
static int seen[SL_PHASE_ID_LIMIT];
static int ring1_tokens;

static int is_tmr_sched_phase(const sl_phase_info *p) {
  return (p->producers & SL_PRODUCER_AICPU) && (p->runtimes & SL_RUNTIME_TMR);
}

/* The inner record r lies inside a record of one of its parents on its stream:
** the parent is written after its inner records, within the same iteration, so
** it is among the next few records. */
static int has_parent(const sl_phase_info *p, const cJSON *r) {
  double s = cJSON_GetObjectItem(r, "start_cycles")->valuedouble, e = cJSON_GetObjectItem(r, "end_cycles")->valuedouble;
  int k = 0;
  for (const cJSON *q = r->next; q && k < 16; q = q->next, k++) {
    const sl_phase_info *qp = sl_phase_by_name(cJSON_GetObjectItem(q, "kind")->valuestring);
    if (!qp || qp->role != SL_PHASE_ROLE_OUTER || !strstr(p->parents, qp->name)) continue;
    if (cJSON_GetObjectItem(q, "start_cycles")->valuedouble <= s && e <= cJSON_GetObjectItem(q, "end_cycles")->valuedouble)
      return 1;
  }
  return 0;
}

static void scan_capture(const char *path, const char *wl, int tmr) {
  char *text = sl_test_read_file(path, NULL);
  assert_non_null(text);
  cJSON *j = cJSON_Parse(text);
  free(text);
  assert_non_null(j);
  const cJSON *streams = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "scheduler_records"), "streams"), *st;
  cJSON_ArrayForEach(st, streams) {
    const cJSON *recs = cJSON_GetObjectItem(st, "records"), *r;
    cJSON_ArrayForEach(r, recs) {
      const sl_phase_info *p = sl_phase_by_name(cJSON_GetObjectItem(r, "kind")->valuestring);
      assert_non_null(p);
      seen[p->id]++;
      if (tmr && p->role == SL_PHASE_ROLE_INNER && !has_parent(p, r))
        fail_msg("%s: a %s record outside every %s record", wl, p->name, p->parents);
    }
  }
  const cJSON *a;
  cJSON_ArrayForEach(a, cJSON_GetObjectItem(j, "aicore_tasks")) {
    uint64_t token = (uint64_t)cJSON_GetArrayItem(a, 1)->valuedouble;
    ring1_tokens += (token >> 32) == 1;
  }
  cJSON_Delete(j);
}

/* Run `wl` at level 4 (TMR, or with `extra`: a case / runtime / platform, NULL-ended)
** and count the phases of its capture. */
static void run_workload(const char *wl, const char *const *extra) {
  char root[512], path[1024];
  const char *argv[16] = {"run", wl, "--enable-chip-swimlane", "4", "-o", root, "-q"};
  int argc = 7;
  snprintf(root, sizeof root, "%s/%s", tmp_root, wl);
  for (; extra && *extra && argc < 16; extra++, argc++) {
    size_t n = strlen(root);
    snprintf(root + n, sizeof root - n, "_%s", *extra);
    argv[argc] = *extra;
  }
  assert_int_equal(sl_cmd_run(argc, (char **)argv), 0);
  DIR *d = opendir(root);
  assert_non_null(d);
  struct dirent *e;
  int found = 0;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.') {
      snprintf(path, sizeof path, "%s/%s/chip_swimlane_records.json", root, e->d_name);
      scan_capture(path, wl, !extra);
      found++;
    }
  closedir(d);
  assert_int_equal(found, 1);
}

static void test_every_tmr_phase_emitted(void **state) {
  (void)state;
  const char *home = getenv("SWIMLANE_HOME");
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/lua/workloads", home ? home : ".");
  DIR *d = opendir(dir);
  assert_non_null(d);
  struct dirent *e;
  int workloads = 0;
  while ((e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n < 5 || strcmp(e->d_name + n - 4, ".lua")) continue;
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(n - 4), e->d_name);
    run_workload(name, NULL);
    workloads++;
  }
  closedir(d);
  assert_true(workloads > 0);
  int want = 0;
  for (unsigned i = 0; i < sl_phase_table_len; i++) {
    const sl_phase_info *p = &sl_phase_table[i];
    if (!is_tmr_sched_phase(p)) continue;
    want++;
    if (!seen[p->id]) fail_msg("phase %s is never emitted by a shipped workload", p->name);
  }
  assert_true(want > 0);
  assert_true(ring1_tokens > 0); /* graph nodes ran under their ring-1 ids */
}

/* The rest of the schema's phases come from host_build_graph: the a2a3 P thread's
** resolve_standalone, the a5 AICore Scheduler's bootstrap / state_probe / refill and
** worksteal (1000 consumers made ready on one scheduler: the other one steals). With
** the TMR runs above, every phase of the generated table is emitted by a shipped
** workload. */
static void test_every_schema_phase_emitted(void **state) {
  (void)state;
  static const char *const a2_hbg[] = {"--runtime", "hbg", "--platform", "a2a3sim", NULL};
  static const char *const a5_hbg[] = {"--runtime", "hbg", "--platform", "a5sim", "--case", "wide", NULL};
  run_workload("fanout", a2_hbg);
  run_workload("fanout", a5_hbg);
  for (unsigned i = 0; i < sl_phase_table_len; i++)
    if (!seen[sl_phase_table[i].id])
      fail_msg("phase %s (schema) is never emitted by a shipped workload", sl_phase_table[i].name);
}

/* Run `wl` (its case `kase`, NULL = the default) at level 4 with deps.json into its own
** root; the run directory in dir. */
static void run_with_deps(const char *wl, const char *kase, char *dir, size_t len) {
  char root[512];
  snprintf(root, sizeof root, "%s/deps_%s_%s", tmp_root, wl, kase ? kase : "default");
  const char *argv[] = {"run", wl, "--enable-chip-swimlane", "4", "--enable-dep-gen", "-o", root, "-q", "--case", kase};
  assert_int_equal(sl_cmd_run(kase ? 10 : 8, (char **)argv), 0);
  DIR *d = opendir(root);
  assert_non_null(d);
  struct dirent *e;
  while ((e = readdir(d)) && e->d_name[0] == '.') {}
  assert_non_null(e);
  snprintf(dir, len, "%s/%s", root, e->d_name);
  closedir(d);
}

/* Scopes: ids on rings 1 and 2 reach deps.json and the trace's rXtY labels. */
static void test_scope_rings_end_to_end(void **state) {
  (void)state;
  char dir[768], path[1024], trace[1024];
  run_with_deps("scopes", NULL, dir, sizeof dir);
  snprintf(path, sizeof path, "%s/deps.json", dir);
  char *deps = sl_test_read_file(path, NULL);
  assert_non_null(deps);
  /* tasks on ring 1 (1 << 32 | local) and ring 2 (2 << 32 | local) are in the graph */
  assert_non_null(strstr(deps, "\"4294967296\""));
  assert_non_null(strstr(deps, "\"8589934594\""));
  free(deps);
  snprintf(path, sizeof path, "%s/chip_swimlane_records.json", dir);
  snprintf(trace, sizeof trace, "%s/trace.json", dir);
  const char *cargv[] = {"convert", path, "-o", trace};
  assert_int_equal(sl_cmd_convert(4, (char **)cargv), 0);
  char *t = sl_test_read_file(trace, NULL);
  assert_non_null(t);
  assert_non_null(strstr(t, "ADD(r1t0)"));
  assert_non_null(strstr(t, "ADD(r1t2)"));
  assert_non_null(strstr(t, "MUL(r2t2)"));
  assert_non_null(strstr(t, "submit(r2t0)"));
  free(t);
}

/* Graph instances are listed in deps.json as their ring-1 nodes with the
** definition's node edges, so the trace names them by function. */
static void test_graph_nodes_in_deps(void **state) {
  (void)state;
  char dir[768], path[1024], trace[1024];
  run_with_deps("graph_exec", NULL, dir, sizeof dir);
  snprintf(path, sizeof path, "%s/deps.json", dir);
  char *deps = sl_test_read_file(path, NULL);
  assert_non_null(deps);
  assert_non_null(strstr(deps, "\"4294967299\"")); /* instance 0, node 3 */
  assert_non_null(strstr(deps, "\"source\":\t\"graph\""));
  free(deps);
  snprintf(path, sizeof path, "%s/chip_swimlane_records.json", dir);
  snprintf(trace, sizeof trace, "%s/trace.json", dir);
  const char *cargv[] = {"convert", path, "-o", trace};
  assert_int_equal(sl_cmd_convert(4, (char **)cargv), 0);
  char *t = sl_test_read_file(trace, NULL);
  assert_non_null(t);
  assert_non_null(strstr(t, "MUL_spmd(r1t3)")); /* instance 0's last node (2 blocks) */
  assert_non_null(strstr(t, "ADD(r1t1024)"));  /* instance 1's first node */
  assert_non_null(strstr(t, "GraphExecution("));
  free(t);
}

/* deps.json of each hazards case: the edge that orders the hazard, with its kind and
** overlap ("covered" when the later access lies inside the earlier one), besides the
** explicit edge from the slow SPIN task (0) to the held-back access (1). */
static void test_hazard_edge_kinds(void **state) {
  (void)state;
  static const struct { const char *kase, *edges; } want[] = {
      {"raw", "0>1 explicit - 1>2 raw covered"},
      {"war", "0>1 explicit - 1>2 war covered"},
      {"waw", "0>1 explicit - 1>2 waw covered"},
      /* A writes columns 2..5, R reads 0..3, W writes 3..7 of one matrix */
      {"views", "0>1 explicit - 1>2 raw other 1>3 waw other 2>3 war other"},
  };
  for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
    char dir[768], path[1024], got[512] = "";
    run_with_deps("hazards", want[k].kase, dir, sizeof dir);
    snprintf(path, sizeof path, "%s/deps.json", dir);
    char *text = sl_test_read_file(path, NULL);
    assert_non_null(text);
    cJSON *j = cJSON_Parse(text), *e;
    free(text);
    assert_non_null(j);
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(j, "edges")) {
      const cJSON *ov = cJSON_GetObjectItem(e, "overlap");
      size_t n = strlen(got);
      snprintf(got + n, sizeof got - n, "%s%s>%s %s %s", n ? " " : "", cJSON_GetObjectItem(e, "pred")->valuestring,
               cJSON_GetObjectItem(e, "succ")->valuestring, cJSON_GetObjectItem(e, "kind")->valuestring,
               ov ? ov->valuestring : "-");
    }
    cJSON_Delete(j);
    if (strcmp(got, want[k].edges)) fail_msg("hazards %s: edges '%s', expected '%s'", want[k].kase, got, want[k].edges);
  }
}

int main(void) {
  snprintf(tmp_root, sizeof tmp_root, "/tmp/sl_phase_cov_%d", (int)getpid());
  mkdir(tmp_root, 0777);
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_tmr_phase_emitted),
                                     cmocka_unit_test(test_every_schema_phase_emitted),
                                     cmocka_unit_test(test_scope_rings_end_to_end),
                                     cmocka_unit_test(test_graph_nodes_in_deps),
                                     cmocka_unit_test(test_hazard_edge_kinds)};
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_root);
  if (rc == 0 && system(cmd) != 0) rc = 1;
  return rc;
}

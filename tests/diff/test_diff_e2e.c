/*
** test_diff_e2e.c — `swimlane diff` the way a user runs it: a shipped workload
** (slowdown_example) captured twice, the second time with its CONSUME kernel made to
** spin 20x longer; the report must name CONSUME first, the diff trace must pass
** check-trace (JSON and protobuf), --fail-if must fail, and bad input must be refused
** without writing anything.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sl_test_file.h"
#include "sl_test_keep.h"

static const char *g_swimlane;
static char g_tmp[256];
static char g_base[512], g_new[512], g_more[512], g_l1[512];

/* Run "swimlane <args>", stdout into *out and stderr into *err (either may be NULL). */
static int sh(char **out, char **err, const char *fmt, ...) {
  char args[4096], cmd[8192], of[300], ef[300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(args, sizeof args, fmt, ap);
  va_end(ap);
  snprintf(of, sizeof of, "%s/stdout.txt", g_tmp);
  snprintf(ef, sizeof ef, "%s/stderr.txt", g_tmp);
  snprintf(cmd, sizeof cmd, "'%s' %s >'%s' 2>'%s'", g_swimlane, args, of, ef);
  int st = system(cmd);
  if (out) assert_non_null(*out = sl_test_read_file(of, NULL));
  if (err) assert_non_null(*err = sl_test_read_file(ef, NULL));
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

/* Capture `workload` (case, level) into <tmp>/<tag>; path of its records in out. */
static void capture(const char *tag, const char *workload, const char *cs, int level, int deps,
                    char *out, size_t cap) {
  char dir[300];
  snprintf(dir, sizeof dir, "%s/%s", g_tmp, tag);
  assert_int_equal(sh(NULL, NULL, "run %s %s%s --enable-chip-swimlane %d %s -o '%s' -q", workload,
                      cs ? "--case " : "", cs ? cs : "", level, deps ? "--enable-dep-gen" : "", dir),
                   0);
  char cmd[512];
  snprintf(cmd, sizeof cmd, "ls '%s'/*/chip_swimlane_records.json", dir);
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  assert_non_null(fgets(out, (int)cap, p));
  out[strcspn(out, "\n")] = '\0';
  pclose(p);
}

static int setup(void **state) {
  snprintf(g_tmp, sizeof g_tmp, "/tmp/sl_diff_e2e_XXXXXX");
  if (!mkdtemp(g_tmp)) return -1;
  capture("base", "slowdown_example", "base", 4, 1, g_base, sizeof g_base);
  capture("new", "slowdown_example", "slow_consume", 4, 1, g_new, sizeof g_new);
  capture("more", "slowdown_example", "more_links", 4, 1, g_more, sizeof g_more);
  capture("l1", "vector_example", NULL, 1, 0, g_l1, sizeof g_l1);
  return 0;
}

static int teardown(void **state) {
  char cmd[512];
  sl_test_keep_traces(g_tmp, "test_diff_e2e"); /* for check_devtools_engine */
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_tmp);
  return system(cmd) == 0 ? 0 : -1;
}

/* The JSON report of "diff a b". */
static cJSON *diff_json(const char *a, const char *b) {
  char *out;
  assert_int_equal(sh(&out, NULL, "diff '%s' '%s' --format json", a, b), 0);
  cJSON *j = cJSON_Parse(out);
  free(out);
  assert_non_null(j);
  return j;
}

static void assert_matching(cJSON *j, const char *rule, int matched, int appeared, int gone) {
  cJSON *m = cJSON_GetObjectItem(j, "matching");
  assert_string_equal(cJSON_GetObjectItem(m, "rule")->valuestring, rule);
  assert_int_equal(cJSON_GetObjectItem(m, "matched")->valueint, matched);
  assert_int_equal(cJSON_GetObjectItem(m, "appeared")->valueint, appeared);
  assert_int_equal(cJSON_GetObjectItem(m, "disappeared")->valueint, gone);
}

static void test_report_names_the_slowed_kernel_first(void **state) {
  char *out;
  cJSON *j = diff_json(g_base, g_new);
  assert_matching(j, "id", 16, 0, 0); /* 2 chains x 4 links x 2 kernels */
  cJSON *f0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "functions"), 0);
  assert_string_equal(cJSON_GetObjectItem(f0, "name")->valuestring, "CONSUME");
  cJSON *exec = cJSON_GetObjectItem(f0, "exec");
  assert_true(cJSON_GetObjectItem(exec, "delta")->valuedouble > 0);
  /* 8 rows a side: the per-row test can tell */
  assert_int_equal(cJSON_GetObjectItem(exec, "samples_base")->valueint, 8);
  assert_true(cJSON_IsBool(cJSON_GetObjectItem(exec, "significant")));
  assert_non_null(cJSON_GetObjectItem(j, "scheduler_phases"));
  assert_non_null(cJSON_GetObjectItem(j, "orchestrator"));
  cJSON *cp = cJSON_GetObjectItem(j, "critical_path");
  assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(cp, "new"), "tasks")) > 0);
  cJSON_Delete(j);
  /* the text report says the same, CONSUME on the first function row */
  assert_int_equal(sh(&out, NULL, "diff '%s' '%s'", g_base, g_new), 0);
  const char *hdr = strstr(out, "Function ");
  assert_non_null(hdr);
  const char *row = strchr(hdr, '\n');
  assert_non_null(row);
  assert_memory_equal(row + 1, "  CONSUME", 9);
  assert_non_null(strstr(out, "Tasks matched by (func_id, task id): 16 matched, 0 appeared, 0 disappeared"));
  free(out);
}

static void test_diff_trace_passes_check_trace(void **state) {
  const char *ext[] = {"json", "pftrace"};
  for (int i = 0; i < 2; i++) {
    char trace[600];
    snprintf(trace, sizeof trace, "%s/diff.%s", g_tmp, ext[i]);
    assert_int_equal(sh(NULL, NULL, "diff '%s' '%s' -o '%s'", g_base, g_new, trace), 0);
    char *out, *err;
    assert_int_equal(sh(&out, &err, "check-trace '%s'", trace), 0);
    assert_non_null(strstr(out, "16 flows")); /* one per matched task */
    /* no warning: the matched flows sit at their task slices' starts with the slices'
    ** category, so Chrome DevTools binds them too (they were mid-slice, cat "diff") */
    if (strstr(err, "warning")) fail_msg("check-trace on %s:\n%s", trace, err);
    free(out);
    free(err);
  }
  char bin[600], *out;
  snprintf(bin, sizeof bin, "%s/diff.bin", g_tmp);
  assert_int_equal(sh(NULL, NULL, "diff '%s' '%s' -o '%s' --format proto", g_base, g_new, bin), 0);
  assert_int_equal(sh(&out, NULL, "check-trace --format proto '%s'", bin), 0);
  free(out);
  /* both runs as sibling groups and the busy-core counter */
  char trace[600], cmd[700];
  snprintf(trace, sizeof trace, "%s/diff.json", g_tmp);
  snprintf(cmd, sizeof cmd, "grep -c '\"base / Worker View\\|\"new / Worker View\\|\"busy cores\"' '%s'",
           trace);
  FILE *p = popen(cmd, "r");
  char line[64];
  assert_non_null(fgets(line, sizeof line, p));
  pclose(p);
  assert_true(atoi(line) >= 3);
}

static void test_different_graphs_match_by_position(void **state) {
  cJSON *j = diff_json(g_base, g_more);
  assert_matching(j, "dag_position", 16, 4, 0); /* one more link x 2 chains x 2 kernels */
  cJSON_Delete(j);
  /* and the other way round */
  char *out;
  assert_int_equal(sh(&out, NULL, "diff '%s' '%s'", g_more, g_base), 0);
  assert_non_null(strstr(out, "16 matched, 0 appeared, 4 disappeared"));
  free(out);
}

static void test_fail_if(void **state) {
  char *err;
  assert_int_equal(sh(NULL, &err, "diff '%s' '%s' --fail-if 'CONSUME.exec>-100%%'", g_base, g_new), 1);
  assert_non_null(strstr(err, "swimlane: --fail-if 'CONSUME.exec>-100%': CONSUME exec +"));
  free(err);
  assert_int_equal(sh(NULL, NULL, "diff '%s' '%s' --fail-if 'makespan>-100%%'", g_base, g_new), 1);
  assert_int_equal(sh(NULL, NULL, "diff '%s' '%s' --fail-if 'makespan>1e15us'", g_base, g_new), 0);
  assert_int_equal(sh(NULL, NULL, "diff '%s' '%s' --fail-if 'makespan<5'", g_base, g_new), 2);
}

static void test_repeated_captures_carry_a_spread(void **state) {
  char *out;
  assert_int_equal(sh(&out, NULL, "diff '%s' '%s' -- '%s' '%s' --format json", g_base, g_base,
                      g_new, g_new),
                   0);
  cJSON *j = cJSON_Parse(out);
  assert_non_null(j);
  cJSON *ms = cJSON_GetObjectItem(j, "makespan_us");
  assert_int_equal(cJSON_GetObjectItem(ms, "samples_base")->valueint, 2);
  /* identical captures per side: no noise, so the change is significant */
  assert_true(cJSON_IsTrue(cJSON_GetObjectItem(ms, "significant")));
  assert_float_equal(cJSON_GetObjectItem(ms, "spread")->valuedouble, 0.0, 0);
  cJSON_Delete(j);
  free(out);
}

static void test_bad_input_is_refused_without_output(void **state) {
  char trace[600], *err;
  snprintf(trace, sizeof trace, "%s/refused.json", g_tmp);
  /* a different workload */
  assert_int_equal(sh(NULL, &err, "diff '%s' '%s' -o '%s'", g_base, g_l1, trace), 1);
  assert_non_null(strstr(err, "a different workload"));
  assert_memory_equal(err, "swimlane: ", 10);
  free(err);
  /* a level-1 capture asked for scheduler phases */
  assert_int_equal(sh(NULL, &err, "diff '%s' '%s' --phases -o '%s'", g_l1, g_l1, trace), 1);
  assert_non_null(strstr(err, "level-1 capture has no scheduler phases"));
  free(err);
  /* an empty capture and a different schema layout, derived from a real one */
  char empty[600], other[600], cmd[2048];
  snprintf(empty, sizeof empty, "%s/empty.json", g_tmp);
  snprintf(other, sizeof other, "%s/other.json", g_tmp);
  snprintf(cmd, sizeof cmd,
           "printf '{\"chip_swimlane_level\": 1, \"metadata\": {\"clock_freq_hz\": 50000000}, "
           "\"aicore_tasks\": []}' > '%s' && sed 's/\"schema_fingerprint\": *\"[0-9a-f]*\"/"
           "\"schema_fingerprint\": \"0123456789abcdef\"/' '%s' > '%s'",
           empty, g_base, other);
  assert_int_equal(system(cmd), 0);
  assert_int_equal(sh(NULL, &err, "diff '%s' '%s' -o '%s'", g_base, empty, trace), 1);
  assert_non_null(strstr(err, "empty capture"));
  free(err);
  assert_int_equal(sh(NULL, &err, "diff '%s' '%s' -o '%s'", g_base, other, trace), 1);
  assert_non_null(strstr(err, "a different schema layout"));
  free(err);
  assert_false(exists(trace));
  assert_int_equal(sh(NULL, NULL, "diff '%s'", g_base), 2);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_diff_e2e SWIMLANE\n");
    return 2;
  }
  g_swimlane = argv[1];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_report_names_the_slowed_kernel_first),
      cmocka_unit_test(test_diff_trace_passes_check_trace),
      cmocka_unit_test(test_different_graphs_match_by_position),
      cmocka_unit_test(test_fail_if),
      cmocka_unit_test(test_repeated_captures_carry_a_spread),
      cmocka_unit_test(test_bad_input_is_refused_without_output),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

/*
** test_e2e.c — run the `swimlane` binary the way a user does (run → convert →
** check-trace, and the error paths) and check what it wrote.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sl_test_file.h"
#include "sl_test_keep.h"

static const char *g_swimlane; /* path of the binary under test */

/* Run "swimlane <args>" with stdout+stderr captured into *out (may be NULL); returns exit status. */
static int sh(char **out, const char *fmt, ...) {
  char args[4096], cmd[8192];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(args, sizeof args, fmt, ap);
  va_end(ap);
  snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", g_swimlane, args);
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  size_t n;
  while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
    len += n;
    if (cap - len < 4096) buf = realloc(buf, cap *= 2);
  }
  buf[len] = '\0';
  int st = pclose(p);
  if (out) *out = buf;
  else free(buf);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static cJSON *load_json(const char *path) {
  char *s = sl_test_read_file(path, NULL);
  if (!s) return NULL;
  cJSON *j = cJSON_Parse(s);
  free(s);
  return j;
}

static int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* The single run directory created under `root`. */
static void only_subdir(const char *root, char *dir, size_t cap) {
  DIR *d = opendir(root);
  assert_non_null(d);
  struct dirent *e;
  int found = 0;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    snprintf(dir, cap, "%s/%s", root, e->d_name);
    found++;
  }
  closedir(d);
  assert_int_equal(found, 1);
}

static char g_tmp[256];

static int make_tmp(void **state) {
  snprintf(g_tmp, sizeof g_tmp, "/tmp/sl_e2e_XXXXXX");
  assert_non_null(mkdtemp(g_tmp));
  return 0;
}

static int remove_tmp(void **state) {
  char cmd[512];
  sl_test_keep_traces(g_tmp, "test_e2e"); /* for check_devtools_engine */
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_tmp);
  return system(cmd) == 0 ? 0 : -1;
}

static int count_events(cJSON *trace, const char *ph, const char *name_prefix) {
  int n = 0;
  cJSON *ev;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(trace, "traceEvents")) {
    const cJSON *p = cJSON_GetObjectItem(ev, "ph"), *nm = cJSON_GetObjectItem(ev, "name");
    if (!cJSON_IsString(p) || strcmp(p->valuestring, ph) != 0) continue;
    if (name_prefix && (!cJSON_IsString(nm) || strncmp(nm->valuestring, name_prefix, strlen(name_prefix)) != 0))
      continue;
    n++;
  }
  return n;
}

static int has_process(cJSON *trace, const char *name) {
  cJSON *ev;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(trace, "traceEvents")) {
    const cJSON *nm = cJSON_GetObjectItem(ev, "name"), *args = cJSON_GetObjectItem(ev, "args");
    if (!cJSON_IsString(nm) || strcmp(nm->valuestring, "process_name") != 0) continue;
    const cJSON *v = cJSON_GetObjectItem(args, "name");
    if (cJSON_IsString(v) && strcmp(v->valuestring, name) == 0) return 1;
  }
  return 0;
}

/* The main job: level 4 with the task graph, then convert and check the trace. */
static void test_main_job(void **state) {
  char *out = NULL, dir[512], path[1024];
  int rc = sh(&out, "run mixed_example --enable-chip-swimlane 4 --enable-dep-gen --dump-args 3 -o '%s'", g_tmp);
  if (rc != 0) fprintf(stderr, "%s", out);
  assert_int_equal(rc, 0);
  free(out);
  only_subdir(g_tmp, dir, sizeof dir);
  assert_non_null(strstr(dir, "MixedExample_"));

  snprintf(path, sizeof path, "%s/chip_swimlane_records.json", dir);
  cJSON *rec = load_json(path);
  assert_non_null(rec);
  assert_int_equal(cJSON_GetObjectItem(rec, "chip_swimlane_level")->valueint, 4);
  cJSON *meta = cJSON_GetObjectItem(rec, "metadata");
  assert_int_equal((long)cJSON_GetObjectItem(meta, "clock_freq_hz")->valuedouble, 50000000);
  int ncores = cJSON_GetArraySize(cJSON_GetObjectItem(meta, "core_types"));
  assert_int_equal(cJSON_GetObjectItem(meta, "num_cores")->valueint, ncores);
  int n_aicore = cJSON_GetArraySize(cJSON_GetObjectItem(rec, "aicore_tasks"));
  cJSON *sched_tasks = cJSON_GetObjectItem(rec, "scheduler_tasks");
  assert_non_null(sched_tasks);
  int n_sched = cJSON_GetArraySize(cJSON_GetObjectItem(sched_tasks, "records"));
  assert_true(n_aicore > 0);
  assert_int_equal(n_aicore, n_sched); /* every dispatch has both halves at level 4 */
  cJSON *streams = cJSON_GetObjectItem(cJSON_GetObjectItem(rec, "scheduler_records"), "streams");
  assert_true(cJSON_GetArraySize(streams) > 0);
  assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(rec, "aicpu_orchestrator_phases")) > 0);
  cJSON_Delete(rec);

  snprintf(path, sizeof path, "%s/deps.json", dir);
  assert_true(file_exists(path));
  snprintf(path, sizeof path, "%s/args_dump/args_dump.json", dir);
  assert_true(file_exists(path));

  rc = sh(&out, "convert '%s/chip_swimlane_records.json'", dir);
  if (rc != 0) fprintf(stderr, "%s", out);
  assert_int_equal(rc, 0);
  assert_non_null(strstr(out, "Task Statistics by Function"));
  assert_non_null(strstr(out, "MATMUL")); /* names come from the name map */
  free(out);

  snprintf(path, sizeof path, "%s/merged_swimlane.json", dir);
  cJSON *trace = load_json(path);
  assert_non_null(trace);
  assert_true(has_process(trace, "Worker View"));
  assert_true(has_process(trace, "Scheduler View"));
  assert_true(count_events(trace, "X", "MATMUL(") > 0);
  assert_true(count_events(trace, "X", "complete(") > 0);
  assert_true(count_events(trace, "s", "dependency") + count_events(trace, "s", "hb_violation") > 0);
  cJSON_Delete(trace);

  rc = sh(&out, "check-trace '%s'", path);
  if (rc != 0) fprintf(stderr, "%s", out);
  assert_int_equal(rc, 0);
  free(out);
}

/* Level 1 captures AICore timing only: no scheduler sections, and the converter
** still draws the Worker View. */
static void test_level1_gating(void **state) {
  char *out = NULL, dir[512], path[1024];
  assert_int_equal(sh(NULL, "run vector_example --enable-chip-swimlane 1 -o '%s'", g_tmp), 0);
  only_subdir(g_tmp, dir, sizeof dir);
  snprintf(path, sizeof path, "%s/chip_swimlane_records.json", dir);
  cJSON *rec = load_json(path);
  assert_non_null(rec);
  assert_int_equal(cJSON_GetObjectItem(rec, "chip_swimlane_level")->valueint, 1);
  assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(rec, "aicore_tasks")) > 0);
  assert_null(cJSON_GetObjectItem(rec, "scheduler_records"));
  assert_null(cJSON_GetObjectItem(rec, "aicpu_orchestrator_phases"));
  cJSON_Delete(rec);
  assert_int_equal(sh(&out, "convert '%s'", path), 0);
  free(out);
}

/* Bad input: a truncated capture fails with the file named and no output written. */
static void test_truncated_capture(void **state) {
  char src[1024], bad[1024], outp[1024], *out = NULL;
  const char *fix = getenv("SL_FIXTURES");
  assert_non_null(fix);
  snprintf(src, sizeof src, "%s/anchor-l4/chip_swimlane_records.json", fix);
  snprintf(bad, sizeof bad, "%s/chip_swimlane_records.json", g_tmp);
  FILE *in = fopen(src, "rb"), *o = fopen(bad, "wb");
  assert_non_null(in);
  assert_non_null(o);
  char buf[1000];
  size_t n = fread(buf, 1, sizeof buf, in); /* first 1000 bytes only */
  fwrite(buf, 1, n, o);
  fclose(in);
  fclose(o);
  snprintf(outp, sizeof outp, "%s/merged.json", g_tmp);
  int rc = sh(&out, "convert '%s' -o '%s'", bad, outp);
  assert_int_not_equal(rc, 0);
  assert_non_null(strstr(out, bad));
  assert_false(file_exists(outp));
  free(out);
}

static void test_unknown_workload(void **state) {
  char *out = NULL;
  int rc = sh(&out, "run no_such_workload -o '%s'", g_tmp);
  assert_int_not_equal(rc, 0);
  assert_non_null(strstr(out, "no_such_workload"));
  free(out);
}

/* --clock takes wall or virtual (both spellings); anything else is a usage error. */
static void test_clock_option(void **state) {
  (void)state;
  char *out = NULL;
  assert_int_equal(sh(&out, "run mixed_example --clock sundial -o '%s'", g_tmp), 2);
  assert_non_null(strstr(out, "swimlane run: --clock expects 'wall' or 'virtual', got 'sundial'"));
  free(out);
  assert_int_equal(sh(&out, "run mixed_example --clock"), 2);
  assert_non_null(strstr(out, "--clock needs a value"));
  free(out);
  assert_int_equal(sh(NULL, "run mixed_example --clock=virtual -q -o '%s'", g_tmp), 0);
  assert_int_equal(sh(NULL, "run mixed_example --clock wall -q -o '%s'", g_tmp), 0);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_e2e /path/to/swimlane\n");
    return 2;
  }
  g_swimlane = argv[1];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_main_job, make_tmp, remove_tmp),
      cmocka_unit_test_setup_teardown(test_level1_gating, make_tmp, remove_tmp),
      cmocka_unit_test_setup_teardown(test_truncated_capture, make_tmp, remove_tmp),
      cmocka_unit_test_setup_teardown(test_unknown_workload, make_tmp, remove_tmp),
      cmocka_unit_test_setup_teardown(test_clock_option, make_tmp, remove_tmp),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

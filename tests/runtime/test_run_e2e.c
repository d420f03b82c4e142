/*
** test_run_e2e.c — `swimlane run` end to end (in process, through sl_cmd_run): every
** shipped workload at levels 0-4, checking the files' content — record counts,
** dispatch <= receive <= start <= end <= finish per joined task, level gating,
** deps.json edges against the workload's real dependencies, args dump entries —
** and the bad-input paths (message + non-zero exit, no output directory).
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
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sl_run.h"
#include "sl_test_file.h"

typedef struct expect {
  const char *workload, *kase;
  int dispatches;       /* subtasks run on cores */
  int submits;          /* orch records: submits + alloc_tensors */
  int dummies, skipped; /* dummy_task / predicated_skip markers */
  const char *edges;    /* distinct "pred>succ" pairs, space separated, sorted by (pred, succ) */
  int dump_entries;     /* args_dump entries at --dump-args 3 */
} expect;

static const expect cases[] = {
    {"vector_example", "default", 5, 6, 0, 1, "0>1 0>2 1>2 2>3 3>4 4>5", 15},
    {"mixed_example", "Case1", 13, 6, 1, 0, "0>1 0>3 1>2 1>3 2>3 2>4 3>4 4>5", 39},
    {"spmd_multiblock", "aiv", 192, 2, 0, 0, "0>1", 6},
    {"spmd_multiblock", "mix", 192, 2, 0, 0, "0>1", 12},
    {"paged_attention", "scalar_loop", 12, 15, 0, 0, NULL, 75},
    {"paged_attention", "ctx_lens", 12, 15, 0, 0, NULL, 75},
};

static char *slurp(const char *path) { return sl_test_read_file(path, NULL); }

static cJSON *load_json(const char *dir, const char *name) {
  char p[1024];
  int n = snprintf(p, sizeof p, "%s/%s", dir, name);
  if (n < 0 || (size_t)n >= sizeof p) return NULL; /* a path this long is a test bug */
  char *t = slurp(p);
  if (!t) return NULL;
  cJSON *j = cJSON_Parse(t);
  free(t);
  return j;
}

/* The single run directory under root (the test gives each run its own root). */
static int find_run_dir(const char *root, char *out, size_t len) {
  DIR *d = opendir(root);
  if (!d) return -1;
  struct dirent *e;
  int n = 0;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.') {
      snprintf(out, len, "%s/%s", root, e->d_name);
      n++;
    }
  closedir(d);
  return n == 1 ? 0 : -1;
}

static int run(int argc, const char **argv) { return sl_cmd_run(argc, (char **)argv); }

static char tmp_root[256];

static void fresh_root(char *root, size_t len, const char *tag) {
  static int seq;
  snprintf(root, len, "%s/%s_%d", tmp_root, tag, seq++);
}

static double num(const cJSON *a, int i) { return cJSON_GetArrayItem(a, i)->valuedouble; }

static void check_records(const expect *x, int level, cJSON *rec) {
  assert_non_null(rec);
  assert_int_equal(cJSON_GetObjectItem(rec, "chip_swimlane_level")->valueint, level);
  cJSON *meta = cJSON_GetObjectItem(rec, "metadata");
  assert_int_equal(cJSON_GetObjectItem(meta, "num_cores")->valueint, 6);
  assert_int_equal(cJSON_GetObjectItem(meta, "clock_freq_hz")->valuedouble, 50000000.0);
  cJSON *core_types = cJSON_GetObjectItem(meta, "core_types");
  assert_string_equal(cJSON_GetArrayItem(core_types, 0)->valuestring, "aic");
  assert_string_equal(cJSON_GetArrayItem(core_types, 5)->valuestring, "aiv");
  cJSON *aic = cJSON_GetObjectItem(rec, "aicore_tasks");
  assert_int_equal(cJSON_GetArraySize(aic), x->dispatches);
  cJSON *st = cJSON_GetObjectItem(rec, "scheduler_tasks");
  cJSON *strec = st ? cJSON_GetObjectItem(st, "records") : NULL;
  int nst = strec ? cJSON_GetArraySize(strec) : 0;
  assert_int_equal(nst, level >= 2 ? x->dispatches : 0);
  /* join on (core, reg_task_id): dispatch <= receive <= start <= end <= finish */
  for (int i = 0; i < cJSON_GetArraySize(aic); i++) {
    cJSON *a = cJSON_GetArrayItem(aic, i);
    double core = num(a, 0), reg = num(a, 2), start = num(a, 3), end = num(a, 4), r2s = num(a, 5);
    double receive = start - r2s;
    assert_true(receive <= start);
    assert_true(start <= end);
    if (level < 2) continue;
    int matched = 0;
    for (int k = 0; k < nst; k++) {
      cJSON *s = cJSON_GetArrayItem(strec, k);
      if (num(s, 0) != core || num(s, 1) != reg) continue;
      matched++;
      assert_true(num(s, 2) <= receive);
      assert_true(end <= num(s, 3));
    }
    assert_int_equal(matched, 1);
  }
  cJSON *sr = cJSON_GetObjectItem(rec, "scheduler_records");
  cJSON *streams = sr ? cJSON_GetObjectItem(sr, "streams") : NULL;
  if (level < 3) {
    assert_true(!streams || cJSON_GetArraySize(streams) == 0);
  } else {
    assert_non_null(cJSON_GetObjectItem(meta, "core_to_thread"));
    int dispatched = 0, dummies = 0, skipped = 0, releases = 0;
    for (int s = 0; s < cJSON_GetArraySize(streams); s++) {
      cJSON *stream = cJSON_GetArrayItem(streams, s);
      cJSON *cap = cJSON_GetObjectItem(stream, "capture");
      assert_int_equal(cJSON_GetObjectItem(cap, "dropped")->valueint, 0);
      cJSON *recs = cJSON_GetObjectItem(stream, "records");
      for (int r = 0; r < cJSON_GetArraySize(recs); r++) {
        cJSON *p = cJSON_GetArrayItem(recs, r);
        const char *kind = cJSON_GetObjectItem(p, "kind")->valuestring;
        int n = cJSON_GetObjectItem(p, "tasks_processed")->valueint;
        assert_true(cJSON_GetObjectItem(p, "start_cycles")->valuedouble <=
                    cJSON_GetObjectItem(p, "end_cycles")->valuedouble);
        if (!strcmp(kind, "dispatch")) dispatched += n;
        if (!strcmp(kind, "release")) releases += n;
        if (!strcmp(kind, "dummy_task")) {
          dummies++;
          assert_false(cJSON_IsNull(cJSON_GetObjectItem(p, "task_id")));
        }
        if (!strcmp(kind, "predicated_skip")) skipped++;
      }
    }
    assert_int_equal(dispatched, x->dispatches);
    assert_int_equal(dummies, x->dummies);
    assert_int_equal(skipped, x->skipped);
    assert_true(releases >= 1);
  }
  cJSON *orch = cJSON_GetObjectItem(rec, "aicpu_orchestrator_phases");
  int norch = 0;
  for (int i = 0; orch && i < cJSON_GetArraySize(orch); i++) norch += cJSON_GetArraySize(cJSON_GetArrayItem(orch, i));
  assert_int_equal(norch, level >= 4 ? x->submits : 0);
}

/* Distinct pred>succ pairs of deps.json, sorted. */
static void edge_string(cJSON *deps, char *out, size_t len) {
  cJSON *edges = cJSON_GetObjectItem(deps, "edges");
  int n = cJSON_GetArraySize(edges);
  unsigned long long (*pairs)[2] = calloc((size_t)n + 1, sizeof *pairs);
  int np = 0;
  for (int i = 0; i < n; i++) {
    cJSON *e = cJSON_GetArrayItem(edges, i);
    unsigned long long p = strtoull(cJSON_GetObjectItem(e, "pred")->valuestring, NULL, 10),
                       s = strtoull(cJSON_GetObjectItem(e, "succ")->valuestring, NULL, 10);
    int dup = 0;
    for (int k = 0; k < np; k++) dup |= pairs[k][0] == p && pairs[k][1] == s;
    if (!dup) {
      pairs[np][0] = p;
      pairs[np][1] = s;
      np++;
    }
  }
  for (int i = 0; i < np; i++)
    for (int k = i + 1; k < np; k++)
      if (pairs[k][0] < pairs[i][0] || (pairs[k][0] == pairs[i][0] && pairs[k][1] < pairs[i][1])) {
        unsigned long long t0 = pairs[i][0], t1 = pairs[i][1];
        pairs[i][0] = pairs[k][0];
        pairs[i][1] = pairs[k][1];
        pairs[k][0] = t0;
        pairs[k][1] = t1;
      }
  out[0] = 0;
  for (int i = 0; i < np; i++) {
    size_t u = strlen(out);
    snprintf(out + u, len - u, "%s%llu>%llu", i ? " " : "", pairs[i][0], pairs[i][1]);
  }
  free(pairs);
}

static void run_case(const expect *x, int level) {
  char root[512], dir[1024], lv[4];
  fresh_root(root, sizeof root, x->kase);
  snprintf(lv, sizeof lv, "%d", level);
  const char *argv[] = {"run", x->workload, "--case", x->kase, "--enable-chip-swimlane", lv,
                        "--enable-dep-gen", "--dump-args", "3", "-o", root, "-q"};
  assert_int_equal(run(12, argv), 0);
  assert_int_equal(find_run_dir(root, dir, sizeof dir), 0);
  cJSON *rec = load_json(dir, "chip_swimlane_records.json");
  if (level == 0) assert_null(rec);
  else check_records(x, level, rec);
  cJSON_Delete(rec);

  cJSON *deps = load_json(dir, "deps.json");
  assert_non_null(deps);
  if (x->edges) {
    char got[1024];
    edge_string(deps, got, sizeof got);
    assert_string_equal(got, x->edges);
  }
  /* kernel_ids / block_num of each task */
  cJSON *tasks = cJSON_GetObjectItem(deps, "tasks");
  int dispatch_sum = 0;
  for (int i = 0; i < cJSON_GetArraySize(tasks); i++) {
    cJSON *t = cJSON_GetArrayItem(tasks, i);
    cJSON *k = cJSON_GetObjectItem(t, "kernel_ids");
    assert_int_equal(cJSON_GetArraySize(k), 3);
    int members = 0;
    for (int j = 0; j < 3; j++) members += num(k, j) >= 0;
    dispatch_sum += members * cJSON_GetObjectItem(t, "block_num")->valueint;
  }
  /* every kernel task ran, except the predicated-off ones (one 1-member task each) */
  assert_int_equal(dispatch_sum - x->skipped, x->dispatches);
  cJSON_Delete(deps);

  char name[256];
  snprintf(name, sizeof name, "name_map_%s.json", x->kase);
  cJSON *nm = load_json(dir, name);
  assert_non_null(nm);
  assert_non_null(cJSON_GetObjectItem(cJSON_GetObjectItem(nm, "callable_id_to_name"), "0"));
  cJSON_Delete(nm);

  cJSON *dump = load_json(dir, "args_dump/args_dump.json");
  assert_non_null(dump);
  assert_int_equal(cJSON_GetObjectItem(dump, "dump_args_level")->valueint, 3);
  assert_true(cJSON_IsNull(cJSON_GetObjectItem(dump, "bin_file")));
  cJSON *args = cJSON_GetObjectItem(dump, "args");
  if (x->dump_entries) assert_int_equal(cJSON_GetArraySize(args), x->dump_entries);
  assert_int_equal(cJSON_GetObjectItem(dump, "total_args")->valueint, cJSON_GetArraySize(args));
  for (int i = 0; i < cJSON_GetArraySize(args); i++) {
    cJSON *e = cJSON_GetArrayItem(args, i);
    const char *stage = cJSON_GetObjectItem(e, "stage")->valuestring;
    const char *role = cJSON_GetObjectItem(e, "role")->valuestring;
    assert_true(!strcmp(stage, "before_dispatch") ? strcmp(role, "output") != 0 : strcmp(role, "input") != 0);
    assert_int_equal(strlen(cJSON_GetObjectItem(e, "task_id")->valuestring), 18);
    if (!strcmp(x->workload, "mixed_example") && num(cJSON_GetObjectItem(e, "func_id"), 0) == 0)
      assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(e, "func_id")), 3);
    if (!strcmp(x->kase, "scalar_loop") && !strcmp(cJSON_GetObjectItem(e, "kind")->valuestring, "scalar") &&
        cJSON_GetObjectItem(e, "arg_index")->valueint == 4 && num(cJSON_GetObjectItem(e, "func_id"), 0) == 0)
      assert_int_equal(cJSON_GetObjectItem(e, "value")->valueint, 4); /* QK's n_blocks */
  }
  cJSON_Delete(dump);
}

static void test_workloads_all_levels(void **state) {
  (void)state;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (int level = 0; level <= 4; level++) run_case(&cases[c], level);
}

static void test_platform_a5_full_chip(void **state) {
  (void)state;
  char root[512], dir[1024];
  fresh_root(root, sizeof root, "a5full");
  const char *argv[] = {"run", "spmd_multiblock", "--case", "mix", "--platform", "a5sim", "--full-chip",
                        "--sched-threads", "4", "--enable-chip-swimlane", "-o", root, "-q"};
  assert_int_equal(run(13, argv), 0);
  assert_int_equal(find_run_dir(root, dir, sizeof dir), 0);
  cJSON *rec = load_json(dir, "chip_swimlane_records.json");
  assert_non_null(rec);
  cJSON *meta = cJSON_GetObjectItem(rec, "metadata");
  assert_int_equal(cJSON_GetObjectItem(meta, "num_cores")->valueint, 72);
  assert_int_equal(cJSON_GetObjectItem(meta, "clock_freq_hz")->valuedouble, 1e9);
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(rec, "aicore_tasks")), 192);
  cJSON_Delete(rec);
}

/* Bad input: non-zero exit and no output directory. */
static void test_bad_input(void **state) {
  (void)state;
  char root[512];
  fresh_root(root, sizeof root, "bad");
  const char *a1[] = {"run", "no_such_workload", "-o", root, "--enable-chip-swimlane"};
  assert_int_not_equal(run(5, a1), 0);
  const char *a2[] = {"run", "mixed_example", "--case", "nope", "-o", root, "--enable-chip-swimlane"};
  assert_int_not_equal(run(7, a2), 0);
  const char *a3[] = {"run", "mixed_example", "--platform", "a9sim", "-o", root, "--enable-chip-swimlane"};
  assert_int_not_equal(run(7, a3), 0);
  const char *a4[] = {"run", "mixed_example", "--enable-chip-swimlane", "5", "-o", root};
  assert_int_not_equal(run(6, a4), 0);
  const char *a5[] = {"run", "mixed_example", "--dump-args", "9", "-o", root};
  assert_int_not_equal(run(6, a5), 0);
  struct stat st;
  assert_int_not_equal(stat(root, &st), 0); /* nothing was created */

  /* a workload whose check fails, and one whose orchestration errors */
  char wl[600];
  snprintf(wl, sizeof wl, "%s/failing.lua", tmp_root);
  FILE *f = fopen(wl, "w");
  fprintf(f, "local w = dofile(os.getenv('SWIMLANE_HOME') .. '/lua/workloads/vector_example.lua')\n"
             "w.check = function(rt, p, t) t.c:set(0, 1e6); local ref = require('workloads.lib.ref')\n"
             "  ref.expect('c', t.c, ref.add(ref.read(t.a), ref.read(t.b))) end\nreturn w\n");
  fclose(f);
  const char *a6[] = {"run", wl, "-q"};
  assert_int_equal(run(3, a6), 1);
  f = fopen(wl, "w");
  fprintf(f, "local w = dofile(os.getenv('SWIMLANE_HOME') .. '/lua/workloads/vector_example.lua')\n"
             "w.orchestrate = function(rt, p) rt:submit{ func = 42, args = {} } end\nreturn w\n");
  fclose(f);
  assert_int_equal(run(3, a6), 1);
}

/* --rounds > 1 disables capture: no records file even with the flag. */
static void test_rounds_disable_capture(void **state) {
  (void)state;
  char root[512], dir[1024];
  fresh_root(root, sizeof root, "rounds");
  const char *argv[] = {"run", "vector_example", "--rounds", "2", "--enable-chip-swimlane", "--enable-dep-gen",
                        "-o", root, "-q"};
  assert_int_equal(run(9, argv), 0);
  assert_int_equal(find_run_dir(root, dir, sizeof dir), 0);
  char p[1100];
  snprintf(p, sizeof p, "%s/chip_swimlane_records.json", dir);
  struct stat st;
  assert_int_not_equal(stat(p, &st), 0);
  snprintf(p, sizeof p, "%s/deps.json", dir);
  assert_int_equal(stat(p, &st), 0);
}

/* --dump-args 2: full payloads in args.bin; task 0's output c equals a + b from its
** own input payloads, and task 1 reads the same bytes as its input. */
static const float *payload(cJSON *args, const char *bin, const char *task, const char *stage, int arg) {
  for (int i = 0; i < cJSON_GetArraySize(args); i++) {
    cJSON *e = cJSON_GetArrayItem(args, i);
    if (strcmp(cJSON_GetObjectItem(e, "task_id")->valuestring, task) ||
        strcmp(cJSON_GetObjectItem(e, "stage")->valuestring, stage) ||
        cJSON_GetObjectItem(e, "arg_index")->valueint != arg)
      continue;
    assert_int_equal(cJSON_GetObjectItem(e, "bin_size")->valueint, 4 * 128 * 4);
    return (const float *)(bin + cJSON_GetObjectItem(e, "bin_offset")->valueint);
  }
  fail_msg("no dump entry %s %s %d", task, stage, arg);
  return NULL;
}

static void test_dump_args_full(void **state) {
  (void)state;
  char root[512], dir[1024], p[1200];
  fresh_root(root, sizeof root, "dump2");
  const char *argv[] = {"run", "vector_example", "--dump-args", "2", "-o", root, "-q"};
  assert_int_equal(run(7, argv), 0);
  assert_int_equal(find_run_dir(root, dir, sizeof dir), 0);
  cJSON *dump = load_json(dir, "args_dump/args_dump.json");
  assert_non_null(dump);
  assert_string_equal(cJSON_GetObjectItem(dump, "bin_file")->valuestring, "args.bin");
  cJSON *args = cJSON_GetObjectItem(dump, "args");
  assert_int_equal(cJSON_GetArraySize(args), 15);
  snprintf(p, sizeof p, "%s/args_dump/args.bin", dir);
  FILE *f = fopen(p, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fclose(f);
  assert_int_equal(size, 15 * 4 * 128 * 4);
  char *bin = slurp(p);
  const char *t0 = "0x0000000000000000", *t1 = "0x0000000000000001";
  const float *a = payload(args, bin, t0, "before_dispatch", 0), *b = payload(args, bin, t0, "before_dispatch", 1),
              *c = payload(args, bin, t0, "after_completion", 2), *c_in = payload(args, bin, t1, "before_dispatch", 0);
  for (int i = 0; i < 4 * 128; i++) {
    assert_float_equal(c[i], a[i] + b[i], 0.0);
    assert_float_equal(c_in[i], c[i], 0.0);
  }
  free(bin);
  cJSON_Delete(dump);
}

/* SIGINT: a workload that submits until interrupted; the run exits 130 and the capture
** it wrote says truncated. */
static void test_sigint_truncates(void **state) {
  (void)state;
  char root[512], wl[600], dir[1024];
  fresh_root(root, sizeof root, "sigint");
  snprintf(wl, sizeof wl, "%s/forever.lua", tmp_root);
  FILE *f = fopen(wl, "w");
  fprintf(f, "local w = dofile(os.getenv('SWIMLANE_HOME') .. '/lua/workloads/bench_flat.lua')\n"
             "w.orchestrate = function(rt, p)\n"
             "  local c = rt:tensor{ shape = { 1 }, dtype = 'int64' }\n"
             "  rt:submit{ func = 0, args = { c }, scalars = { 1 } }\n"
             "  io.open('%s/.started', 'w'):close()\n" /* inside -o: user Lua may write there only */
             "  while true do rt:submit{ func = 0, args = { c }, scalars = { 1 } } end\n"
             "end\nw.check = nil\nreturn w\n", root);
  fclose(f);
  char marker[600];
  snprintf(marker, sizeof marker, "%s/.started", root);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    const char *argv[] = {"run", wl, "--enable-chip-swimlane", "-o", root, "-q"};
    _exit(run(6, argv));
  }
  /* the marker appears once the orchestration runs (the handler is installed by then) */
  struct stat st;
  while (stat(marker, &st) != 0) usleep(10000);
  kill(pid, SIGINT);
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 130);
  assert_int_equal(find_run_dir(root, dir, sizeof dir), 0);
  cJSON *rec = load_json(dir, "chip_swimlane_records.json");
  assert_non_null(rec);
  cJSON *cap = cJSON_GetObjectItem(cJSON_GetObjectItem(rec, "metadata"), "capture");
  assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cap, "truncated")));
  assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cap, "balanced")));
  /* whatever ran was collected whole: every AICore record has its scheduler record */
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(rec, "aicore_tasks")),
                   cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(rec, "scheduler_tasks"), "records")));
  cJSON_Delete(rec);
}

int main(void) {
  snprintf(tmp_root, sizeof tmp_root, "/tmp/sl_run_e2e_%d", (int)getpid());
  mkdir(tmp_root, 0777);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_workloads_all_levels),
      cmocka_unit_test(test_platform_a5_full_chip),
      cmocka_unit_test(test_bad_input),
      cmocka_unit_test(test_rounds_disable_capture),
      cmocka_unit_test(test_dump_args_full),
      cmocka_unit_test(test_sigint_truncates),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_root);
  if (rc == 0 && system(cmd) != 0) rc = 1;
  return rc;
}

/*
** test_l0_e2e.c — `swimlane l0` end to end on the shipped workloads, one test per
** category of docs/l0.md's table, plus the FAQ errors that apply here.
** Each test runs in its own empty directory (outputs/ lands there). argv[1] is
** the swimlane binary.
*/
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>
#include "sl_test_file.h"
#include "sl_test_keep.h"

static const char *swimlane;
static char fixtures[4096];

typedef struct result {
  int rc;
  char *out; /* stdout + stderr */
} result;

static result run(const char *fmt, ...) {
  char args[4096], cmd[8192];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(args, sizeof args, fmt, ap);
  va_end(ap);
  snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", swimlane, args);
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  size_t got;
  while ((got = fread(buf + n, 1, cap - n - 1, p)) > 0) {
    n += got;
    if (n + 1 == cap) buf = realloc(buf, cap *= 2);
  }
  buf[n] = '\0';
  int st = pclose(p);
  return (result){WIFEXITED(st) ? WEXITSTATUS(st) : -1, buf};
}

static void expect_in(const result *r, const char *needle) {
  if (!strstr(r->out, needle)) fail_msg("expected '%s' in output:\n%s", needle, r->out);
}

/* The path printed after `marker` on its line. */
static char *path_after(const result *r, const char *marker) {
  const char *p = strstr(r->out, marker);
  if (!p) fail_msg("no '%s' in output:\n%s", marker, r->out);
  p += strlen(marker);
  const char *e = strchr(p, '\n');
  return strndup(p, e ? (size_t)(e - p) : strlen(p));
}

static cJSON *load(const char *path) {
  char *s = sl_test_read_file(path, NULL);
  if (!s) fail_msg("cannot read %s", path);
  cJSON *doc = cJSON_Parse(s);
  free(s);
  assert_non_null(doc);
  return doc;
}

/* X slices named `name` (NULL: any) on process `pid` (NULL: any). */
static int count_x(const cJSON *doc, const char *name, const char *pid) {
  int n = 0;
  const cJSON *ev;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(doc, "traceEvents")) {
    if (strcmp(cJSON_GetObjectItem(ev, "ph")->valuestring, "X")) continue;
    const cJSON *nm = cJSON_GetObjectItem(ev, "name"), *pd = cJSON_GetObjectItem(ev, "pid");
    if (name && strcmp(nm->valuestring, name)) continue;
    if (pid && strcmp(pd->valuestring, pid)) continue;
    n++;
  }
  return n;
}

/* Most X slices of one pid/tid overlapping at once (by exact cycles). */
static int max_in_flight(const cJSON *doc, const char *pid, const char *tid) {
  int best = 0;
  const cJSON *a, *b;
  cJSON_ArrayForEach(a, cJSON_GetObjectItem(doc, "traceEvents")) {
    if (strcmp(cJSON_GetObjectItem(a, "ph")->valuestring, "X") || strcmp(cJSON_GetObjectItem(a, "pid")->valuestring, pid) ||
        strcmp(cJSON_GetObjectItem(a, "tid")->valuestring, tid))
      continue;
    double t = cJSON_GetObjectItem(cJSON_GetObjectItem(a, "args"), "start_cycle")->valuedouble;
    int n = 0;
    cJSON_ArrayForEach(b, cJSON_GetObjectItem(doc, "traceEvents")) {
      if (strcmp(cJSON_GetObjectItem(b, "ph")->valuestring, "X") || strcmp(cJSON_GetObjectItem(b, "pid")->valuestring, pid) ||
          strcmp(cJSON_GetObjectItem(b, "tid")->valuestring, tid))
        continue;
      const cJSON *ba = cJSON_GetObjectItem(b, "args");
      n += cJSON_GetObjectItem(ba, "start_cycle")->valuedouble <= t && t < cJSON_GetObjectItem(ba, "end_cycle")->valuedouble;
    }
    if (n > best) best = n;
  }
  return best;
}

/* Distinct tids of `pid` starting with `prefix` (the Perfetto variant's sub-lanes). */
static int sub_lanes(const cJSON *doc, const char *pid, const char *prefix) {
  char seen[64][32];
  int n = 0;
  const cJSON *ev;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(doc, "traceEvents")) {
    const cJSON *tid = cJSON_GetObjectItem(ev, "tid"), *pd = cJSON_GetObjectItem(ev, "pid");
    if (!cJSON_IsString(tid) || !cJSON_IsString(pd) || strcmp(pd->valuestring, pid) ||
        strncmp(tid->valuestring, prefix, strlen(prefix)))
      continue;
    int k = 0;
    while (k < n && strcmp(seen[k], tid->valuestring)) k++;
    if (k == n && n < 64) snprintf(seen[n++], sizeof seen[0], "%s", tid->valuestring);
  }
  return n;
}

static int count_ph(const cJSON *doc, const char *ph) {
  int n = 0;
  const cJSON *ev;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(doc, "traceEvents")) n += !strcmp(cJSON_GetObjectItem(ev, "ph")->valuestring, ph);
  return n;
}

/* Both traces of a successful run; checks the Perfetto one with check-trace. */
static void traces(const result *r, cJSON **insight, cJSON **perfetto) {
  if (r->rc != 0) fail_msg("l0 failed (%d):\n%s", r->rc, r->out);
  char *a = path_after(r, "DONE. trace.json (Insight) -> ");
  char *b = path_after(r, "perfetto-friendly  -> ");
  *insight = load(a);
  *perfetto = load(b);
  assert_int_equal(count_ph(*perfetto, "B") + count_ph(*perfetto, "E"), 0);
  assert_int_equal(count_x(*perfetto, NULL, NULL), count_x(*insight, NULL, NULL) + count_ph(*insight, "B"));
  result h = run("--help");
  if (strstr(h.out, "check-trace")) {
    result c = run("check-trace '%s'", b);
    if (c.rc != 0) fail_msg("check-trace failed on %s:\n%s", b, c.out);
    free(c.out);
  }
  free(h.out);
  free(a);
  free(b);
}

static int setup(void **state) {
  (void)state;
  char tmpl[] = "/tmp/l0_e2e_XXXXXX";
  char *d = mkdtemp(tmpl);
  assert_non_null(d);
  assert_int_equal(chdir(d), 0);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  char cwd[4096];
  assert_non_null(getcwd(cwd, sizeof cwd));
  assert_int_equal(chdir("/tmp"), 0);
  sl_test_keep_traces(cwd, "test_l0_e2e"); /* for check_devtools_engine */
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", cwd);
  return system(cmd) == 0 ? 0 : -1;
}

/* ---- the categories ------------------------------------------------------------------ */

static void test_mix_3way(void **state) {
  (void)state;
  result r = run("l0 --test mixed_example --func-id 0,1,2");
  expect_in(&r, "no --case; auto-pinned first a2a3sim case: Case1");
  expect_in(&r, "func_id=[0, 1, 2] task=0x0000000000000000 mix=[0, 1, 2] mode=mix block_num=1");
  expect_in(&r, "members=[MATMUL(aic,func 0), ADD(aiv,func 1), MUL(aiv,func 2)]");
  expect_in(&r, "    slot 8  tensor  FLOAT32  [32, 32]");
  expect_in(&r, "smoke build OK (replay_entry, launch_replay present)");
  expect_in(&r, "self-check OK: MMAD 2 == n_blocks 2, FIX_L0C_TO_DST 32 == n_blocks 32 (expected from tile shapes");
  expect_in(&r, "self-check OK: timeline keeps ");
  expect_in(&r, "l0_swimlane_MixedExample_Case1_a2a3sim_MATMUL_mix0_1_2_");
  cJSON *in, *pf;
  traces(&r, &in, &pf);
  /* cubecore0's GM loads: never more in flight than the MTE2 request limit */
  const cJSON *mte2 = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(in, "otherData"), "pipe_costs"), "MTE2");
  int limit = cJSON_GetObjectItem(mte2, "outstanding")->valueint;
  assert_true(limit > 1);
  assert_int_equal(max_in_flight(in, "core0.cubecore0", "MTE2"), limit); /* 96 loads fill the queue */
  assert_int_equal(sub_lanes(pf, "core0.cubecore0", "MTE2#"), limit);
  assert_true(count_x(in, "MMAD", "core0.cubecore0") > 0);
  assert_true(count_x(in, "VADD", "core0.veccore0") > 0);
  assert_true(count_x(in, "VMUL", "core0.veccore1") > 0);
  assert_int_equal(count_x(in, "VMUL", "core0.veccore0"), 0);
  assert_int_equal(count_x(in, "VADD", "core0.veccore1"), 0);
  assert_int_equal(count_x(in, "MMAD", "core0.cubecore0"), count_x(pf, "MMAD", "core0.cubecore0"));
  cJSON_Delete(in);
  cJSON_Delete(pf);
  free(r.out);
}

static void test_single_aiv(void **state) {
  (void)state;
  result r = run("l0 --test vector_example --func-id 0 -g");
  expect_in(&r, "mode=aiv block_num=1");
  expect_in(&r, "self-check: no cube work in this task");
  cJSON *in, *pf;
  traces(&r, &in, &pf);
  /* one distinct AIV member: both lanes run it */
  assert_true(count_x(in, "VADD", "core0.veccore0") > 0);
  assert_int_equal(count_x(in, "VADD", "core0.veccore0"), count_x(in, "VADD", "core0.veccore1"));
  /* -g: every instruction points at the user's kernel (add.c calls the library's
  ** tile loop on its line 8); the library line rides along as lib_source */
  int slices = 0;
  const cJSON *ev;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(in, "traceEvents")) {
    const cJSON *a = cJSON_GetObjectItem(ev, "args");
    const cJSON *src = cJSON_GetObjectItem(a, "source"), *lib = cJSON_GetObjectItem(a, "lib_source");
    if (strcmp(cJSON_GetObjectItem(ev, "ph")->valuestring, "X")) continue;
    if (!cJSON_IsString(src) || !strstr(src->valuestring, "runtime/kernels/add.c:8"))
      fail_msg("slice source %s is not the kernel's line", cJSON_IsString(src) ? src->valuestring : "(none)");
    assert_true(cJSON_IsString(lib) && strstr(lib->valuestring, "sl_kernel_lib.h:"));
    slices++;
  }
  assert_true(slices > 0);
  cJSON_Delete(in);
  cJSON_Delete(pf);
  free(r.out);
}

static void test_pa_scalar_loop(void **state) {
  (void)state;
  /* shrinking the n_blocks scalar shrinks the loop: MMAD tiles follow */
  result a = run("l0 --test paged_attention --case scalar_loop --func-id 0");
  result b = run("l0 --test paged_attention --case scalar_loop --func-id 0 --set-arg 4=2");
  expect_in(&b, "overriding scalar slot 4: 4 -> 2");
  cJSON *ia, *pa, *ib, *pb;
  traces(&a, &ia, &pa);
  traces(&b, &ib, &pb);
  /* single AIC task: QK's matmul on the cube only */
  expect_in(&a, "mode=aic");
  expect_in(&a, "    slot 4  scalar  INT64    = 4");
  expect_in(&a, "    slot 7  scalar  FLOAT32  = 0.25");
  assert_true(count_x(ia, "MMAD", "core0.cubecore0") > 0);
  assert_int_equal(count_x(ia, NULL, "core0.veccore0"), 0);
  int ma = count_x(ia, "LOAD_GM_TO_L1", NULL), mb = count_x(ib, "LOAD_GM_TO_L1", NULL);
  assert_true(mb > 0 && mb < ma);
  result c = run("l0 --test paged_attention --case scalar_loop --func-id 0 --set-arg 4=9 --no-collect");
  expect_in(&c, "WARNING: larger than dump value -> buffers may be undersized");
  cJSON_Delete(ia);
  cJSON_Delete(pa);
  cJSON_Delete(ib);
  cJSON_Delete(pb);
  free(a.out);
  free(b.out);
  free(c.out);
}

static void test_pa_control_tensor(void **state) {
  (void)state;
  /* zeroed context_lens: the softmax loop never runs ("fake-fast") */
  result z = run("l0 --test paged_attention --case ctx_lens --func-id 1");
  result f = run("l0 --test paged_attention --case ctx_lens --func-id 1 --set-arg 1=16");
  expect_in(&f, "filling tensor slot 1 (INT32 [3]) with 16 in every element");
  cJSON *iz, *pz, *in, *pf;
  traces(&z, &iz, &pz);
  traces(&f, &in, &pf);
  assert_int_equal(count_x(iz, "VEXP", NULL), 0);
  assert_int_equal(count_x(in, "VEXP", "core0.veccore0"), 4);
  /* a float tensor cannot be filled */
  result e = run("l0 --test paged_attention --case ctx_lens --func-id 1 --set-arg 0=1");
  assert_int_equal(e.rc, 1);
  expect_in(&e, "is a FLOAT32 tensor; tensor fill is only supported for integer dtypes");
  cJSON_Delete(iz);
  cJSON_Delete(pz);
  cJSON_Delete(in);
  cJSON_Delete(pf);
  free(z.out);
  free(f.out);
  free(e.out);
}

static void test_pa_restore(void **state) {
  (void)state;
  /* a payload dump gives context_lens its real bytes (20, 32, 9): batch 0 -> 20 keys */
  result d = run("run paged_attention --case ctx_lens --dump-args 2");
  assert_int_equal(d.rc, 0);
  char *dir = path_after(&d, "outputs in ");
  result r = run("l0 --test paged_attention --func-id 1 --dump-json %s/args_dump/args_dump.json --restore-arg 1", dir);
  expect_in(&r, "restoring tensor slot 1 (INT32 [3]): 12 logical bytes -> 12 physical bytes");
  expect_in(&r, "slot 1  tensor  INT32    [3]  [restored payload]");
  expect_in(&r, "PagedAttention_ctx_lens_a2a3sim_SF_mix1"); /* case read back from the dump's directory */
  cJSON *in, *pf;
  traces(&r, &in, &pf);
  int vexp = 0;
  const cJSON *ev;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(in, "traceEvents")) {
    const cJSON *nm = cJSON_GetObjectItem(ev, "name");
    if (!cJSON_IsString(nm) || strcmp(nm->valuestring, "VEXP")) continue;
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(ev, "args"), "work")->valueint, 20);
    vexp++;
  }
  assert_int_equal(vexp, 8);
  /* level 3 (no payload) is refused with the reason */
  result n = run("l0 --test paged_attention --case ctx_lens --func-id 1 --restore-arg 1");
  assert_int_equal(n.rc, 1);
  expect_in(&n, "--restore-arg requires a payload-carrying dump; this manifest has no bin_file");
  /* restore and set on one slot */
  result b = run("l0 --test paged_attention --func-id 1 --restore-arg 1 --set-arg 1=3");
  assert_int_equal(b.rc, 2);
  expect_in(&b, "arg slot 1 cannot use both --restore-arg and --set-arg");
  cJSON_Delete(in);
  cJSON_Delete(pf);
  free(dir);
  free(d.out);
  free(r.out);
  free(n.out);
  free(b.out);
}

static void test_spmd_single_source(void **state) {
  (void)state;
  result r = run("l0 --test spmd_multiblock --case aiv --func-id 0 --spmd-block-num 4");
  expect_in(&r, "mode=aiv block_num=4");
  cJSON *in, *pf;
  traces(&r, &in, &pf);
  /* the case has 192 rows of 64: block 0 of 4 adds rows 0..47, one VADD per row */
  assert_int_equal(count_x(in, "VADD", "core0.veccore0"), 48);
  assert_int_equal(count_x(in, "VADD", "core0.veccore1"), 48);
  cJSON_Delete(in);
  cJSON_Delete(pf);
  free(r.out);
}

static void test_spmd_mix_shared_source(void **state) {
  (void)state;
  result r = run("l0 --test spmd_multiblock --case mix --func-id 2,3,4 --spmd-block-num 2 --no-collect");
  expect_in(&r, "members=[SPMD_MATMUL(aic,func 2), SPMD_ADD_LANE0(aiv,func 3), SPMD_ADD_LANE1(aiv,func 4)]");
  expect_in(&r, "--no-collect: stopping after smoke build.");
  char *ws = path_after(&r, "workspace: ");
  char path[4400];
  snprintf(path, sizeof path, "%s/replay_kernel.c", ws);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  char text[16384];
  size_t n = fread(text, 1, sizeof text - 1, f);
  text[n] = '\0';
  fclose(f);
  /* func 3 and 4 compile one file: it is included once and both lanes run it */
  assert_non_null(strstr(text, "l0_f3_entry"));
  assert_null(strstr(text, "l0_f4_entry"));
  assert_non_null(strstr(text, "both lanes run it"));
  /* --no-collect: no traces */
  snprintf(path, sizeof path, "%s/insight_export", ws);
  assert_int_not_equal(access(path, F_OK), 0);
  free(ws);
  free(r.out);
}

static void test_mix_2aiv_and_arch(void **state) {
  (void)state;
  /* mix of 2 AIV: lane 0 runs ADD_STD, lane 1 MUL_STD; then the same task on a5 */
  result a = run("l0 --test mixed_example --func-id 3,4 --dump-json %s/mixed/args_dump.json", fixtures);
  result b = run("l0 --test mixed_example --func-id 3,4 --platform a5sim --dump-json %s/mixed/args_dump.json",
                 fixtures);
  expect_in(&a, "task=0x0000000000000004 mix=[3, 4] mode=mix");
  cJSON *ia, *pa, *ib, *pb;
  traces(&a, &ia, &pa);
  traces(&b, &ib, &pb);
  assert_true(count_x(ia, "VADD", "core0.veccore0") > 0);
  assert_true(count_x(ia, "VMUL", "core0.veccore1") > 0);
  assert_int_equal(count_x(ia, "VMUL", "core0.veccore0"), 0);
  assert_int_equal(count_x(ia, NULL, "core0.cubecore0"), 0);
  const cJSON *ma = cJSON_GetObjectItem(cJSON_GetObjectItem(ia, "otherData"), "makespan_cycles");
  const cJSON *mb = cJSON_GetObjectItem(cJSON_GetObjectItem(ib, "otherData"), "makespan_cycles");
  assert_true(ma->valuedouble != mb->valuedouble);
  /* a2a3 exports the idle cube sub-core, a5 only sub-cores that ran */
  char *ta = cJSON_PrintUnformatted(ia), *tb = cJSON_PrintUnformatted(ib);
  assert_non_null(strstr(ta, "core0.cubecore0"));
  assert_null(strstr(tb, "core0.cubecore0"));
  free(ta);
  free(tb);
  cJSON_Delete(ia);
  cJSON_Delete(pa);
  cJSON_Delete(ib);
  cJSON_Delete(pb);
  free(a.out);
  free(b.out);
}

/* ---- FAQ errors ------------------------------------------------------------------------ */

static int l0_dirs(void) {
  int n = 0;
  DIR *d = opendir("outputs");
  struct dirent *e;
  while (d && (e = readdir(d))) n += !strncmp(e->d_name, "l0_swimlane_", 12);
  if (d) closedir(d);
  return n;
}

static void test_errors(void **state) {
  (void)state;
  struct { const char *args; int rc; const char *needle; } cases[] = {
      {"l0 --test mixed_example --func-id 9", 1, "func_id=9 not found. Available incores: 0=MATMUL(aic), 1=ADD(aiv)"},
      {"l0 --test vector_example --func-id 0,1", 1,
       "--func-id [0, 1] matches no task; dump has func_id shapes [[0], [1]]"},
      {"l0 --test no_such_workload --func-id 0", 1, "no_such_workload: workload not found"},
      {"l0 --test mixed_example", 2, "--func-id A[,B,C] is required"},
      {"l0 --test mixed_example --func-id 0 --platform a9", 2, "Unknown platform: a9"},
      {"l0 --test mixed_example --func-id 0 --set-arg 4", 2, "--set-arg must be SLOT=VALUE (got '4')"},
      {"l0 --test mixed_example --func-id 0 --restore-arg 60", 2, "--restore-arg SLOT must be in [0, 49]"},
      {"l0 --test mixed_example --func-id 0 --case Nope", 1, "no case named Nope"},
      {"l0 --test mixed_example --func-id 0 --dump-json missing.json", 1, "missing.json: --dump-json not found"},
      {"l0 --test mixed_example --func-id 3,4 --task-id 0x77 --dump-json FX/mixed/args_dump.json", 1,
       "task_id 0x77 is not among the tasks"},
      {"l0 --test FX/workloads/bad_syntax.lua --func-id 0", 1, "bad_syntax.lua:"},
      {"l0 --test mixed_example --func-id 0 --dump-json FX/recon/args_dump.json", 1,
       "recon/args_dump.json: --func-id [0] matches no task"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char args[8192];
    const char *fx = strstr(cases[i].args, "FX/");
    if (fx)
      snprintf(args, sizeof args, "%.*s%s/%s", (int)(fx - cases[i].args), cases[i].args, fixtures, fx + 3);
    else
      snprintf(args, sizeof args, "%s", cases[i].args);
    result r = run("%s", args);
    if (r.rc != cases[i].rc) fail_msg("'%s': exit %d, want %d:\n%s", args, r.rc, cases[i].rc, r.out);
    expect_in(&r, cases[i].needle);
    free(r.out);
  }
  /* failed runs leave no workspace behind */
  assert_int_equal(l0_dirs(), 0);
}

static void test_no_new_dump(void **state) {
  (void)state;
  /* the workload runs but dispatches nothing: no dump, and an older one is never reused */
  result r = run("l0 --test %s/workloads/idle.lua --func-id 0", fixtures);
  assert_int_equal(r.rc, 1);
  expect_in(&r, "produced no NEW outputs/*/args_dump/args_dump.json");
  expect_in(&r, "Refusing to reuse a stale dump");
  free(r.out);
}

static void test_smoke_build_fails(void **state) {
  (void)state;
  result r = run("l0 --test %s/workloads/broken.lua --func-id 0 --dump-json %s/broken/args_dump.json", fixtures,
                 fixtures);
  assert_int_equal(r.rc, 1);
  expect_in(&r, "build.log: smoke build failed (cmake); see this log");
  free(r.out);
}

/* A MATMUL that forgets C's last row replays self-consistently (it issues what the
** trace shows); the self-check's expectation from the task's shapes catches it. */
static void test_broken_kernel_caught(void **state) {
  (void)state;
  result r = run("l0 --test %s/workloads/matmul_drop_row.lua --func-id 0,1,2 --dump-json %s/mixed/args_dump.json",
                 fixtures, fixtures);
  assert_int_equal(r.rc, 1);
  expect_in(&r, "self-check OK: timeline keeps "); /* the model timed it right */
  expect_in(&r, "WARNING: self-check failed: MMAD 2 (n_blocks 2), FIX_L0C_TO_DST 31 (n_blocks 32)");
  expect_in(&r, "DONE. trace.json (Insight) -> "); /* the traces stay for a look */
  free(r.out);
}

/* The same for vector work: an ADD that forgets its last row issues one VADD, two loads
** and one store fewer than the task's shapes and the UB staging (l0_expect "vbinary:S")
** require; the intact kernels of the same task agree with the expectation. */
static void test_broken_vector_kernel_caught(void **state) {
  (void)state;
  result ok = run("l0 --test mixed_example --func-id 3,4 --dump-json %s/mixed/args_dump.json", fixtures);
  expect_in(&ok, "self-check OK: VECTOR ops 64, GM->UB loads 128, UB->GM stores 64 == expected");
  free(ok.out);
  result r = run("l0 --test %s/workloads/add_drop_row.lua --func-id 3,4 --dump-json %s/mixed/args_dump.json",
                 fixtures, fixtures);
  assert_int_equal(r.rc, 1);
  expect_in(&r, "self-check OK: timeline keeps "); /* the model timed it right */
  expect_in(&r, "WARNING: self-check failed: VECTOR ops 63 (expected 64), GM->UB loads 126 (expected 128), "
                "UB->GM stores 63 (expected 64)");
  free(r.out);
}

static char *slurp(const char *path) {
  char *s = sl_test_read_file(path, NULL);
  assert_non_null(s);
  return s;
}

/* The same task replayed twice gives byte-identical traces (turn-taking threads,
** timing computed from the recorded streams). */
static void test_deterministic(void **state) {
  (void)state;
  char *t[2];
  for (int i = 0; i < 2; i++) {
    result r = run("l0 --test mixed_example --func-id 0,1,2 --dump-json %s/mixed/args_dump.json", fixtures);
    if (r.rc != 0) fail_msg("l0 failed:\n%s", r.out);
    char *p = path_after(&r, "DONE. trace.json (Insight) -> ");
    t[i] = slurp(p);
    free(p);
    free(r.out);
  }
  assert_string_equal(t[0], t[1]);
  free(t[0]);
  free(t[1]);
}

static void test_max_time(void **state) {
  (void)state;
  /* 1e11 spin iterations cannot finish: the replay is stopped at --max-time */
  result r = run("l0 --test bench_flat --func-id 0 --max-time 1 --dump-json %s/spin/args_dump.json", fixtures);
  assert_int_equal(r.rc, 1);
  expect_in(&r, "replay exceeded --max-time 1 s");
  free(r.out);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_l0_e2e SWIMLANE\n");
    return 2;
  }
  swimlane = argv[1];
  const char *fx = getenv("SL_FIXTURES");
  snprintf(fixtures, sizeof fixtures, "%s/../l0/fixtures", fx ? fx : "tests/fixtures");
  char *real = realpath(fixtures, NULL);
  if (real) {
    snprintf(fixtures, sizeof fixtures, "%s", real);
    free(real);
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_mix_3way, setup, teardown),
      cmocka_unit_test_setup_teardown(test_single_aiv, setup, teardown),
      cmocka_unit_test_setup_teardown(test_pa_scalar_loop, setup, teardown),
      cmocka_unit_test_setup_teardown(test_pa_control_tensor, setup, teardown),
      cmocka_unit_test_setup_teardown(test_pa_restore, setup, teardown),
      cmocka_unit_test_setup_teardown(test_spmd_single_source, setup, teardown),
      cmocka_unit_test_setup_teardown(test_spmd_mix_shared_source, setup, teardown),
      cmocka_unit_test_setup_teardown(test_mix_2aiv_and_arch, setup, teardown),
      cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(test_no_new_dump, setup, teardown),
      cmocka_unit_test_setup_teardown(test_smoke_build_fails, setup, teardown),
      cmocka_unit_test_setup_teardown(test_broken_vector_kernel_caught, setup, teardown),
      cmocka_unit_test_setup_teardown(test_broken_kernel_caught, setup, teardown),
      cmocka_unit_test_setup_teardown(test_max_time, setup, teardown),
      cmocka_unit_test_setup_teardown(test_deterministic, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
** test_l0_templates.c — the lua/l0 workspace templates: the combined kernel's
** tiers (single, same-source collapse, two AIV with lane routing, empty
** sub-cores), per-func-id renames, 1C2V limits, and the host program's exact
** scalar bits, fills, restored bytes and SPMD context.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <lauxlib.h>
#include <lua.h>

#include "sl_base.h"

/* Render with `members` (a Lua table constructor) and the fixed rest of a spec;
** returns the named file (malloc'd) or, on a render error, "ERROR: <msg>". */
static char *render(const char *members, const char *extra, const char *file) {
  char code[8192];
  const char *fx = getenv("SL_FIXTURES");
  snprintf(code, sizeof code,
           "local FX = '%s/../l0/fixtures/kernels/'\n"
           "local spec = { label = 'L', task_id = '0x0000000000000001', manifest = 'm.json',\n"
           "  platform = 'a2a3sim', arch = 'a2a3', kernel = 'K', debug_line = false, spmd_block_num = 4,\n"
           "  max_time = 60, repo_root = '/repo', build_dir = '/repo/build', cc = '/usr/bin/cc',\n"
           "  libs = { '/repo/build/libsl_pipe.a' }, dep_libs = {}, include_dirs = { '/repo/a', '/repo/a' },\n"
           "  extra_flags = '', members = %s, tensors = {}, scalars = {} }\n"
           "%s\n"
           "local ok, files = pcall(require('l0').render, spec)\n"
           "if not ok then return 'ERROR: ' .. files end\n"
           "return files['%s']\n",
           fx ? fx : "tests/fixtures", members, extra ? extra : "", file);
  lua_State *L = sl_lua_new();
  assert_non_null(L);
  if (luaL_dostring(L, code) != LUA_OK) fail_msg("lua: %s", lua_tostring(L, -1));
  char *out = strdup(lua_tostring(L, -1) ? lua_tostring(L, -1) : "(nil)");
  lua_close(L);
  return out;
}

#define M(id, name, core, src) "{ func_id = " #id ", name = '" name "', core_type = '" core "', source = " src " }"
#define K(f) "'/repo/runtime/kernels/" f "'"

static void expect_in(const char *text, const char *needle) {
  if (!strstr(text, needle)) fail_msg("expected '%s' in:\n%s", needle, text);
}

static void test_three_way(void **state) {
  (void)state;
  char *k = render("{" M(0, "MATMUL", "aic", K("matmul.c")) "," M(1, "ADD", "aiv", K("add_at3.c")) "," M(
                       2, "MUL", "aiv", K("mul_at6.c")) "}",
                   NULL, "replay_kernel.c");
  expect_in(k, "#if defined(SL_DAV_CUBE)\n/* MATMUL (func 0, aic) */\n#define kernel_entry l0_f0_entry\n"
               "#include \"/repo/runtime/kernels/matmul.c\"\n#undef kernel_entry");
  expect_in(k, "void replay_entry_mix_aic(int64_t *args) { l0_f0_entry(args); }");
  expect_in(k, "#if defined(SL_DAV_VEC)\n/* ADD (func 1, aiv) */\n#define kernel_entry l0_f1_entry");
  expect_in(k, "#define kernel_entry l0_f2_entry");
  expect_in(k, "  if (sl_get_subblockid() == 0)\n    l0_f1_entry(args);\n  else\n    l0_f2_entry(args);");
  free(k);
  char *l = render("{" M(0, "MATMUL", "aic", K("matmul.c")) "," M(1, "ADD", "aiv", K("add_at3.c")) "}", NULL,
                   "replay_launch.c");
  expect_in(l, "void replay_entry(int64_t *args) {");
  expect_in(l, "int launch_replay(void *args, void *stream) {");
  expect_in(l, "sl_pipe_run((sl_pipe_model *)stream, 1, 1, replay_entry");
  free(l);
}

static void test_single_and_empty(void **state) {
  (void)state;
  char *k = render("{" M(0, "kernel_add", "aiv", K("add.c")) "}", NULL, "replay_kernel.c");
  expect_in(k, "void replay_entry_mix_aic(int64_t *args) { (void)args; /* no AIC member in this task */ }");
  expect_in(k, "/* one distinct AIV member: both lanes run it */\nvoid replay_entry_mix_aiv(int64_t *args) { "
               "l0_f0_entry(args); }");
  free(k);
  char *l = render("{" M(0, "kernel_add", "aiv", K("add.c")) "}", NULL, "replay_launch.c");
  expect_in(l, "stream, 0, 1, replay_entry");
  free(l);
  k = render("{" M(0, "QK", "aic", K("pa_qk.c")) "}", NULL, "replay_kernel.c");
  expect_in(k, "void replay_entry_mix_aiv(int64_t *args) { (void)args; /* no AIV member in this task */ }");
  free(k);
}

static void test_same_source_collapse(void **state) {
  (void)state;
  /* distinct ids, one file (SPMD mix) and duplicate ids ([0,1,1]) both run once */
  char *k = render("{" M(2, "MM", "aic", K("matmul.c")) "," M(3, "L0", "aiv", K("add_lanes.c")) "," M(
                       4, "L1", "aiv", K("add_lanes.c")) "}",
                   NULL, "replay_kernel.c");
  expect_in(k, "l0_f3_entry");
  assert_null(strstr(k, "l0_f4_entry"));
  assert_null(strstr(k, "sl_get_subblockid"));
  free(k);
  k = render("{" M(0, "MM", "aic", K("matmul.c")) "," M(1, "A", "aiv", K("add.c")) "," M(1, "A", "aiv",
                                                                                            K("add.c")) "}",
             NULL, "replay_kernel.c");
  expect_in(k, "both lanes run it");
  free(k);
}

/* A readable member source is copied in behind #line, and replay_kernel.c's own
** numbering is restored after it. */
static void test_line_directives(void **state) {
  (void)state;
  char *k = render("{" M(0, "S", "aiv", "FX .. 'with_static.c'") "}", NULL, "replay_kernel.c");
  char *at = strstr(k, "#line 1 \"");
  assert_non_null(at);
  assert_non_null(strstr(at, "fixtures/kernels/with_static.c\"\n"));
  assert_null(strstr(k, "#include \"/")); /* not included by path */
  const char *back = strstr(k, "#line ");
  back = strstr(back + 1, "#line ");
  assert_non_null(back);
  int n = 0;
  assert_int_equal(sscanf(back, "#line %d \"replay_kernel.c\"", &n), 1);
  int physical = 1;
  for (const char *p = k; p < back; p++) physical += *p == '\n';
  assert_int_equal(n, physical + 1); /* the line after the directive is numbered n */
  free(k);
}

static void test_limits(void **state) {
  (void)state;
  char *e = render("{" M(0, "A", "aic", K("a.c")) "," M(1, "B", "aic", K("b.c")) "}", NULL, "replay_kernel.c");
  assert_string_equal(e, "ERROR: 2 AIC members in one task; 1C2V has a single AIC sub-core");
  free(e);
  e = render("{" M(0, "A", "aiv", K("a.c")) "," M(1, "B", "aiv", K("b.c")) "," M(2, "C", "aiv", K("c.c")) "}",
             NULL, "replay_kernel.c");
  assert_string_equal(e, "ERROR: 3 distinct AIV members in one task; 1C2V has at most 2 AIV sub-cores");
  free(e);
  e = render("{" M(0, "A", "aicpu", K("a.c")) "}", NULL, "replay_kernel.c");
  assert_string_equal(e, "ERROR: unsupported core_type aicpu for func_id 0 (only aic/aiv)");
  free(e);
}

static void test_static_renames(void **state) {
  (void)state;
  char *k = render("{" M(5, "S", "aiv", "FX .. 'with_static.c'") "," M(6, "T", "aiv", K("add.c")) "}", NULL,
                   "replay_kernel.c");
  expect_in(k, "#define scale l0_f5_scale");
  expect_in(k, "#define twice l0_f5_twice");
  expect_in(k, "#undef twice");
  free(k);
}

static void test_host_program(void **state) {
  (void)state;
  const char *extra =
      "spec.tensors = {\n"
      " { slot = 0, dtype = 'FLOAT32', dtype_raw = 0, elem = 4, shape = {2, 3}, strides = {3, 1},\n"
      "   start_offset = '0', alloc_bytes = '24', contiguous = true, init = 'zero', fill = 0 },\n"
      " { slot = 1, dtype = 'INT32', dtype_raw = 2, elem = 4, shape = {4}, strides = {1},\n"
      "   start_offset = '0', alloc_bytes = '16', contiguous = true, init = 'fill', fill = 512 },\n"
      " { slot = 2, dtype = 'UINT8', dtype_raw = 5, elem = 1, shape = {2}, strides = {1},\n"
      "   start_offset = '1', alloc_bytes = '3', contiguous = false, init = 'restore', fill = 0,\n"
      "   payload = '\\0\\1\\255' } }\n"
      "spec.scalars = { { slot = 3, raw = '0x000000003e000000', text = '0.125', dtype = 'FLOAT32' },\n"
      "                 { slot = 4, raw = '0xffffffffffffffff', text = '18446744073709551615', dtype = 'UINT64' } }\n";
  char *h = render("{" M(0, "kernel_add", "aiv", K("add.c")) "}", extra, "replay_host.c");
  expect_in(h, "enum { kNumTensors = 3, kMaxSeconds = 60, kBlockNum = 4 };");
  expect_in(h, "static const unsigned char hbuf2[] = {\n    0x00, 0x01, 0xff,\n};");
  expect_in(h, "fill(bufs[1], bytes, 4, INT64_C(512));");
  expect_in(h, "memcpy(bufs[2], hbuf2, sizeof hbuf2);");
  expect_in(h, "make_desc(&descs[2], bufs[2], bytes, 1ULL, shape, strides, 1, 5, 0);");
  expect_in(h, "args[2] = (int64_t)(uintptr_t)&descs[2];");
  expect_in(h, "args[3] = (int64_t)UINT64_C(0x000000003e000000); /* FLOAT32 0.125 */");
  expect_in(h, "args[4] = (int64_t)UINT64_C(0xffffffffffffffff);");
  expect_in(h, "((int32_t *)local_ctx)[1] = kBlockNum;");
  expect_in(h, "args[SL_SPMD_GLOBAL_CONTEXT_INDEX]");
  expect_in(h, "SL_TD_SHAPE(d, i) = shape[i];");
  free(h);
  char *c = render("{" M(0, "kernel_add", "aiv", K("add.c")) "}", "spec.debug_line = true", "CMakeLists.txt");
  expect_in(c, "set(REPO_ROOT \"/repo\" CACHE PATH");
  expect_in(c, "add_compile_options(-O1 -Wall -pthread -g)");
  expect_in(c, "target_compile_definitions(replay_cube PRIVATE SL_DAV_CUBE)");
  expect_in(c, "target_compile_definitions(replay_vec PRIVATE SL_DAV_VEC)");
  expect_in(c, "  \"/repo/build/libsl_pipe.a\"");
  assert_null(strstr(c, "-s)"));
  /* include dirs deduplicated */
  char *first = strstr(c, "\"/repo/a\"");
  assert_null(strstr(first + 1, "\"/repo/a\""));
  free(c);
  c = render("{" M(0, "kernel_add", "aiv", K("add.c")) "}", NULL, "CMakeLists.txt");
  expect_in(c, "target_link_options(replay_kernel PRIVATE -s)");
  free(c);
  char *r = render("{" M(0, "kernel_add", "aiv", K("add.c")) "}", NULL, "run_collect.sh");
  expect_in(r, "set -euo pipefail");
  expect_in(r, "insight_export/OPPROF_${STAMP}/simulator");
  expect_in(r, "date +%Y%m%d%H%M%S");
  expect_in(r, "timeout --kill-after=5 65 ");
  free(r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_three_way),  cmocka_unit_test(test_single_and_empty),
      cmocka_unit_test(test_same_source_collapse), cmocka_unit_test(test_line_directives), cmocka_unit_test(test_limits),
      cmocka_unit_test(test_static_renames), cmocka_unit_test(test_host_program),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
** test_codegen_layout.c — the generator's layout engine (codegen/layout.lua) on
** small hand-made records: padding, explicit alignment, unions, declared offsets,
** nested structs, per-platform counts, and the layout errors.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

/* Lay out a record given as a Lua table constructor and describe the result:
** "name@off+size ... size=N align=A" (gaps as "gap@off+size"), or "error: msg". */
static const char *DESCRIBE =
    "local layout = require('layout')\n"
    "local src, plat_src = ...\n"
    "local rec = load('return ' .. src, 'rec', 't', {})()\n"
    "local plat = plat_src and load('return ' .. plat_src, 'plat', 't', {})() or nil\n"
    "local inner = layout.layout({ name = 'inner', size = 8, align = 4,\n"
    "  fields = { { name = 'x', type = 'u16' }, { name = 'y', type = 'u32' } } }, { layouts = {}, declared = {} }, error)\n"
    "local errs = {}\n"
    "local lay = layout.layout(rec, { platform = plat, layouts = { inner = inner }, declared = { inner = true, later = true } },\n"
    "  function(m) errs[#errs + 1] = m end)\n"
    "if not lay then return 'error: ' .. table.concat(errs, '; ') end\n"
    "local out = {}\n"
    "for _, m in ipairs(lay.members) do\n"
    "  local s = (m.gap and 'gap' or m.name) .. '@' .. m.offset .. '+' .. m.size\n"
    "  if m.union then\n"
    "    for _, v in ipairs(m.variants) do\n"
    "      for _, vm in ipairs(v.members) do s = s .. ' ' .. v.name .. '.' .. vm.name .. '@' .. (m.offset + vm.offset) end\n"
    "    end\n"
    "  end\n"
    "  out[#out + 1] = s\n"
    "end\n"
    "out[#out + 1] = 'size=' .. lay.size .. ' align=' .. lay.align\n"
    "return table.concat(out, ' ')\n";

static lua_State *L;
static char result[1024];

static int setup(void **state) {
  (void)state;
  const char *home = getenv("SWIMLANE_HOME");
  L = luaL_newstate();
  luaL_openlibs(L);
  lua_getglobal(L, "package");
  lua_pushfstring(L, "%s/codegen/?.lua", home ? home : ".");
  lua_setfield(L, -2, "path");
  lua_pop(L, 1);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  lua_close(L);
  return 0;
}

static const char *describe(const char *record, const char *platform) {
  assert_int_equal(luaL_loadstring(L, DESCRIBE), LUA_OK);
  lua_pushstring(L, record);
  if (platform) lua_pushstring(L, platform);
  else lua_pushnil(L);
  if (lua_pcall(L, 2, 1, 0) != LUA_OK) fail_msg("lua: %s", lua_tostring(L, -1));
  snprintf(result, sizeof result, "%s", lua_tostring(L, -1));
  lua_pop(L, 1);
  return result;
}

static void test_natural_padding(void **state) {
  (void)state;
  assert_string_equal(
      describe("{ name = 'r', size = 24, fields = { { name = 'a', type = 'u8' }, { name = 'b', type = 'u64' },"
               " { name = 'c', type = 'u16' } } }", NULL),
      "a@0+1 gap@1+7 b@8+8 c@16+2 gap@18+6 size=24 align=8");
}

static void test_explicit_alignment(void **state) {
  (void)state;
  /* the aicpu task record: 20 B of data, aligned(32) -> 32 B */
  assert_string_equal(
      describe("{ name = 'r', size = 32, align = 32, fields = { { name = 'd', type = 'u64' },"
               " { name = 'f', type = 'u64' }, { name = 'id', type = 'u32' } } }", NULL),
      "d@0+8 f@8+8 id@16+4 gap@20+12 size=32 align=32");
}

static void test_union_at_unaligned_offset(void **state) {
  (void)state;
  /* a union of u32 pairs after three u32s sits at 28 with no padding, as in the
  ** scheduler phase record; the smaller variant does not change the size */
  assert_string_equal(
      describe("{ name = 'r', size = 48, fields = { { name = 's', type = 'u64' }, { name = 'e', type = 'u64' },"
               " { name = 'i', type = 'u32' }, { name = 'k', type = 'u32' }, { name = 't', type = 'u32' },"
               " { name = 'u', type = 'union', offset = 28, variants = {"
               "   { name = 'p', fields = { { name = 'hit', type = 'u32' }, { name = 'miss', type = 'u32' } } },"
               "   { name = 'q', fields = { { name = 'lo', type = 'u16' } } } } },"
               " { name = 'd', type = 'i16', count = 3 } } }", NULL),
      "s@0+8 e@8+8 i@16+4 k@20+4 t@24+4 u@28+8 p.hit@28 p.miss@32 q.lo@28 d@36+6 gap@42+6 size=48 align=8");
}

static void test_declared_offset_gap(void **state) {
  (void)state;
  assert_string_equal(
      describe("{ name = 'r', size = 16, fields = { { name = 'a', type = 'u32' },"
               " { name = 'b', type = 'u32', offset = 12 } } }", NULL),
      "a@0+4 gap@4+8 b@12+4 size=16 align=4");
}

static void test_nested_struct_and_2d_array(void **state) {
  (void)state;
  assert_string_equal(
      describe("{ name = 'r', size = 24, fields = { { name = 'c', type = 'u8' },"
               " { name = 'in', type = 'inner' }, { name = 'm', type = 'u16', count = { 2, 3 } } } }", NULL),
      "c@0+1 gap@1+3 in@4+8 m@12+12 size=24 align=4");
}

static void test_per_platform_count(void **state) {
  (void)state;
  assert_string_equal(
      describe("{ name = 'h', per_platform = true, size = { p = 8 }, fields = {"
               " { name = 'heads', type = 'u32', count = 'n' }, { name = 'x', type = 'i8', count = 'm' } } }",
               "{ name = 'p', n = 1, m = 3 }"),
      "heads@0+4 x@4+3 gap@7+1 size=8 align=4");
}

static void test_errors(void **state) {
  (void)state;
  assert_string_equal(
      describe("{ name = 'r', size = 8, fields = { { name = 'a', type = 'u32' }, { name = 'b', type = 'u32', offset = 2 } } }", NULL),
      "error: field 'b' at offset 2 overlaps 'a' (bytes 0..3)");
  assert_string_equal(describe("{ name = 'r', size = 12, fields = { { name = 'a', type = 'u64' } } }", NULL),
                      "error: declared size 12 != computed size 8");
  assert_string_equal(describe("{ name = 'r', size = 8, fields = { { name = 'a', type = 'float' } } }", NULL),
                      "error: field 'a': unknown type 'float'");
  assert_string_equal(describe("{ name = 'r', size = 8, fields = { { name = 'a', type = 'later' } } }", NULL),
                      "error: field 'a': type 'later' is declared later; declare it before use");
  assert_string_equal(describe("{ name = 'r', size = 8, align = 4, fields = { { name = 'a', type = 'u64' } } }", NULL),
                      "error: declared align 4 is below the natural alignment 8");
  assert_string_equal(describe("{ name = 'r', size = 8, fields = { { name = 'a', type = 'u32', offset = 2 } } }", NULL),
                      "error: field 'a': offset 2 is not a multiple of its alignment 4");
  assert_string_equal(
      describe("{ name = 'r', size = 8, fields = { { name = 'u', type = 'union', variants = {"
               " { name = 'v', fields = { { name = 'lo', type = 'u32' } }, compose = { { name = 'id', hi = 'hi', lo = 'lo' } } } } } } }",
               NULL),
      "error: union 'u': variant 'v': compose 'id' names missing field 'hi'");
  assert_string_equal(
      describe("{ name = 'r', size = 8, fields = { { name = 'u', type = 'union', default = 'nope', variants = {"
               " { name = 'v', fields = { { name = 'lo', type = 'u32' } } } } } } }", NULL),
      "error: union 'u': default names missing variant 'nope'");
  assert_string_equal(describe("{ name = 'r', size = 8, fields = { { name = 'a', type = 'u32', count = 'n' } } }", NULL),
                      "error: field 'a': count 'n' is a platform constant: the record needs per_platform = true");
  assert_string_equal(
      describe("{ name = 'r', size = 8, fields = { { name = 'a', type = 'u32' }, { name = 'a', type = 'u32' } } }", NULL),
      "error: field 'a' is declared twice");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_natural_padding),
      cmocka_unit_test(test_explicit_alignment),
      cmocka_unit_test(test_union_at_unaligned_offset),
      cmocka_unit_test(test_declared_offset_gap),
      cmocka_unit_test(test_nested_struct_and_2d_array),
      cmocka_unit_test(test_per_platform_count),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

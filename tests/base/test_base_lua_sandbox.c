/*
** test_base_lua_sandbox.c — what every user Lua state (sl_lua_new: rules, workloads,
** L0 templates) may not do: run programs, load C code or bytecode, reach the hidden
** functions through the debug library, write outside the write folder, or run past
** the instruction budget (in the main thread or in coroutines). Each case runs a
** chunk and checks the error text or the file system, not only that it failed.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sl_base.h"

static char g_dir[64];  /* the write folder */
static char g_out[128]; /* a folder beside it, outside */

static int setup(void **state) {
  (void)state;
  snprintf(g_dir, sizeof g_dir, "%s", "/tmp/sl_sandbox_XXXXXX");
  if (!mkdtemp(g_dir)) return -1;
  snprintf(g_out, sizeof g_out, "%s_outside", g_dir);
  if (mkdir(g_out, 0755) != 0) return -1;
  sl_lua_set_write_dir(g_dir);
  sl_lua_set_instruction_limit(3000000);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  char cmd[320];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", g_dir, g_out);
  return system(cmd) == 0 ? 0 : -1;
}

/* Run chunk in a fresh sandboxed state with DIR / OUT set; returns the error text
** (static, "" when the chunk ran to the end). */
static const char *run(const char *chunk) {
  static char err[512];
  lua_State *L = sl_lua_new();
  assert_non_null(L);
  lua_pushstring(L, g_dir);
  lua_setglobal(L, "DIR");
  lua_pushstring(L, g_out);
  lua_setglobal(L, "OUT");
  err[0] = '\0';
  if (luaL_loadbuffer(L, chunk, strlen(chunk), "=user") != LUA_OK || lua_pcall(L, 0, 0, 0) != LUA_OK) {
    const char *m = lua_tostring(L, -1);
    snprintf(err, sizeof err, "%s", m ? m : "(no message)");
  }
  lua_close(L);
  return err;
}

static int exists(const char *dir, const char *name) {
  char p[256];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  return access(p, F_OK) == 0;
}

static void no_programs_no_c_code(void **state) {
  (void)state;
  assert_string_equal(run("assert(os.execute == nil and io.popen == nil and os.exit == nil)\n"
                          "assert(os.remove == nil and os.rename == nil and os.tmpname == nil)\n"
                          "assert(package.loadlib == nil and package.cpath == '' and #package.searchers == 2)\n"
                          "assert(io.output == nil and io.tmpfile == nil)\n"),
                      "");
  assert_string_equal(run("os.execute('touch /tmp/sl_sandbox_pwned')"), "user:1: attempt to call a nil value (field 'execute')");
  assert_string_equal(run("io.popen('id')"), "user:1: attempt to call a nil value (field 'popen')");
}

/* The debug library would hand back everything above (the unconfined io.open is
** io.open's upvalue) and switch the budget off: only traceback is left. */
static void debug_library_reduced(void **state) {
  (void)state;
  assert_string_equal(run("assert(type(debug.traceback()) == 'string')\n"
                          "for k in pairs(debug) do assert(k == 'traceback', k) end\n"
                          "assert(require('debug') == debug)\n"),
                      "");
  assert_string_equal(run("local _, raw = debug.getupvalue(io.open, 1)\n"
                          "raw(OUT .. '/escaped.txt', 'w'):close()\n"),
                      "user:1: attempt to call a nil value (field 'getupvalue')");
  assert_false(exists(g_out, "escaped.txt"));
  assert_string_equal(run("debug.sethook()"), "user:1: attempt to call a nil value (field 'sethook')");
}

static void bytecode_refused(void **state) {
  (void)state;
  assert_string_equal(run("local f, e = load(string.dump(function() end))\n"
                          "assert(f == nil and e:find('binary', 1, true), e)\n"
                          "local g, e2 = load(string.dump(function() end), 'x', 'b')\n"
                          "assert(g == nil and e2:find('binary', 1, true), e2)\n"),
                      "");
}

static void writes_only_in_the_write_folder(void **state) {
  (void)state;
  assert_string_equal(run("local f = assert(io.open(DIR .. '/inside.txt', 'w'))\n"
                          "f:write('ok') f:close()\n"
                          "local g, e = io.open(OUT .. '/outside.txt', 'a')\n"
                          "assert(g == nil, 'opened outside')\n"
                          "assert(e == OUT .. '/outside.txt: writing files outside the output folder is not allowed here', e)\n"
                          "local h, e2 = io.open(DIR .. '/../' .. OUT:match('[^/]*$') .. '/dotdot.txt', 'w')\n"
                          "assert(h == nil and e2:find('outside the output folder', 1, true), e2)\n"
                          "assert(io.open(DIR .. '/inside.txt', 'r+') ~= nil)\n"
                          "assert(io.open(DIR .. '/inside.txt'):read('a') == 'ok')\n"),
                      "");
  assert_true(exists(g_dir, "inside.txt"));
  assert_false(exists(g_out, "outside.txt"));
  assert_false(exists(g_out, "dotdot.txt"));
  /* a symlink inside the write folder that points outside does not lead out */
  char link[256];
  snprintf(link, sizeof link, "%s/out_link", g_dir);
  assert_int_equal(symlink(g_out, link), 0);
  assert_string_equal(run("local f, e = io.open(DIR .. '/out_link/via_link.txt', 'w')\n"
                          "assert(f == nil and e:find('outside the output folder', 1, true), e)\n"),
                      "");
  assert_false(exists(g_out, "via_link.txt"));
  /* no write folder declared: no writes at all */
  sl_lua_set_write_dir(NULL);
  assert_string_equal(run("local f, e = io.open(DIR .. '/none.txt', 'w')\n"
                          "assert(f == nil and e:find('not allowed', 1, true), e)\n"),
                      "");
  sl_lua_set_write_dir(g_dir);
  assert_false(exists(g_dir, "none.txt"));
}

static void instruction_budget(void **state) {
  (void)state;
  const char *want = "user:1: script exceeded the instruction limit (3000000 instructions; a runaway loop?)";
  assert_string_equal(run("while true do end"), want);
  /* each coroutine starts with a copy of the main thread's extra space: the budget is
  ** the state's, not the coroutine's, so a stream of short coroutines ends too */
  const char *e = run("while true do coroutine.wrap(function() for _ = 1, 2000000 do end end)() end");
  assert_non_null(strstr(e, "script exceeded the instruction limit (3000000 instructions"));
  e = run("local co = coroutine.create(function() while true do end end)\n"
          "local ok, m = coroutine.resume(co)\n"
          "assert(not ok) error(m, 0)\n");
  assert_non_null(strstr(e, "script exceeded the instruction limit (3000000 instructions"));
  /* a script well under the budget runs; the budget is per state */
  assert_string_equal(run("for _ = 1, 100000 do end"), "");
  assert_string_equal(run("for _ = 1, 100000 do end"), "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(no_programs_no_c_code),    cmocka_unit_test(debug_library_reduced),
      cmocka_unit_test(bytecode_refused),         cmocka_unit_test(writes_only_in_the_write_folder),
      cmocka_unit_test(instruction_budget),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

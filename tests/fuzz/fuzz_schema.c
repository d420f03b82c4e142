/*
** fuzz_schema.c — libFuzzer target: a schema file through the schema compiler
** (codegen/main.lua, as `swimlane schema` runs it). The first input byte picks which
** of the schema files is replaced by the rest of the input; the others stay the
** real ones (SL_FUZZ_SCHEMA_DIR), so the validation past the file's syntax runs.
**
** One generator state serves every input (sl_gen_open once, sl_gen_call per input,
** each under a fresh instruction budget): the codegen modules are compiled once, not
** per input. The five schema files an input leaves alone are compiled once too (a
** loadfile that keeps their chunks); each input still loads its own file with the
** real loadfile and runs every file's chunk afresh into a new empty environment, so
** all of the validation, layout, fingerprint and summary run on every input. An
** input that is a real file unchanged must compile (abort otherwise): the kept state
** judges like a fresh one.
*/
#include <lauxlib.h>
#include <lua.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz_file.h"
#include "sl_base.h"
#include "sl_gen_host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const files[] = {"records.lua", "phases.lua", "lanes.lua",
                                    "levels.lua", "platforms.lua", "dtypes.lua"};
#define NFILES (sizeof files / sizeof files[0])

/* loadfile(path, mode, env): the real one for the file being fuzzed (FUZZED), a kept
** chunk for the others (set to env, as loadfile would). */
static const char keep_chunks[] =
    "local rawloadfile, setupvalue, kept = loadfile, debug.setupvalue, {}\n"
    "loadfile = function(path, mode, env)\n"
    "  if path == FUZZED then return rawloadfile(path, mode, env) end\n"
    "  local f = kept[path]\n"
    "  if not f then\n"
    "    local err\n"
    "    f, err = rawloadfile(path, mode, env)\n"
    "    if not f then return nil, err end\n"
    "    kept[path] = f\n"
    "  end\n"
    "  setupvalue(f, 1, env)\n"
    "  return f\n"
    "end\n";

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) abort();
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) abort();
  fclose(f);
  *len = (size_t)n;
  return s;
}

static lua_State *gen_state(const char *schema) {
  static lua_State *L;
  if (L) return L;
  /* a mutated schema file may loop: it ends with an error well before -timeout */
  sl_lua_set_instruction_limit(SL_FUZZ_SCHEMA_BUDGET);
  L = sl_gen_open("swimlane", SL_FUZZ_CODEGEN_DIR, schema, fuzz_dir());
  if (!L || luaL_dostring(L, keep_chunks) != LUA_OK) abort();
  return L;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char *orig[NFILES];
  static size_t orig_len[NFILES];
  char name[64], schema[256];
  snprintf(schema, sizeof schema, "%s/schema", fuzz_dir());
  if (!orig[0]) {
    if (!freopen("/dev/null", "w", stdout)) abort(); /* the summary */
    if (mkdir(schema, 0755) != 0) abort();
    for (size_t i = 0; i < NFILES; i++) {
      char p[1024];
      snprintf(p, sizeof p, "%s/%s", SL_FUZZ_SCHEMA_DIR, files[i]);
      orig[i] = read_all(p, &orig_len[i]);
      snprintf(name, sizeof name, "schema/%s", files[i]);
      fuzz_write(name, (const uint8_t *)orig[i], orig_len[i]);
    }
  }
  if (!size) return 0;
  lua_State *L = gen_state(schema);
  size_t k = data[0] % NFILES;
  snprintf(name, sizeof name, "schema/%s", files[k]);
  lua_pushstring(L, fuzz_write(name, data + 1, size - 1));
  lua_setglobal(L, "FUZZED");
  char *argv[] = {(char *)"schema", (char *)"--command-schema", NULL};
  int rc = sl_gen_call(L, 2, argv);
  /* the kept state must judge like a fresh one: the real file itself compiles */
  if (size - 1 == orig_len[k] && !memcmp(data + 1, orig[k], orig_len[k]) && rc != 0) abort();
  fuzz_write(name, (const uint8_t *)orig[k], orig_len[k]); /* back to the real file */
  /* free this input's garbage now: libFuzzer scans the whole heap for leaks (LSan)
  ** after any input that leaves more blocks than it found, which cost most of the time */
  lua_gc(L, LUA_GCCOLLECT, 0);
  return 0;
}

/*
** fuzz_schema.c — libFuzzer target: a schema file through the schema compiler
** (codegen/main.lua, as `swimlane schema` runs it). The first input byte picks which
** of the schema files is replaced by the rest of the input; the others stay the
** real ones (SL_FUZZ_SCHEMA_DIR), so the validation past the file's syntax runs.
*/
#include <stddef.h>
#include <stdint.h>

#include "fuzz_file.h"
#include "sl_gen_host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const files[] = {"records.lua", "phases.lua", "lanes.lua",
                                    "levels.lua", "platforms.lua", "dtypes.lua"};
#define NFILES (sizeof files / sizeof files[0])

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char *orig[NFILES];
  static size_t orig_len[NFILES];
  char name[64];
  if (!orig[0]) {
    if (!freopen("/dev/null", "w", stdout)) abort(); /* the summary */
    for (size_t i = 0; i < NFILES; i++) {
      char p[1024];
      snprintf(p, sizeof p, "%s/%s", SL_FUZZ_SCHEMA_DIR, files[i]);
      orig[i] = read_all(p, &orig_len[i]);
      snprintf(name, sizeof name, "schema/%s", files[i]);
      if (i == 0) {
        snprintf(p, sizeof p, "%s/schema", fuzz_dir());
        if (mkdir(p, 0755) != 0) abort();
      }
      fuzz_write(name, (const uint8_t *)orig[i], orig_len[i]);
    }
  }
  if (!size) return 0;
  size_t k = data[0] % NFILES;
  snprintf(name, sizeof name, "schema/%s", files[k]);
  fuzz_write(name, data + 1, size - 1);
  char schema[256], out[256];
  snprintf(schema, sizeof schema, "%s/schema", fuzz_dir());
  snprintf(out, sizeof out, "%s/generated", fuzz_dir());
  char *argv[] = {(char *)"schema", (char *)"--command-schema", NULL};
  (void)sl_gen_run("swimlane", SL_FUZZ_CODEGEN_DIR, schema, out, 2, argv);
  fuzz_write(name, (const uint8_t *)orig[k], orig_len[k]); /* back to the real file */
  return 0;
}

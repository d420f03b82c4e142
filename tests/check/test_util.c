/*
** test_util.c — see test_util.h.
*/
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *tmp_path(const char *name) {
  static char buf[512];
  const char *dir = getenv("TMPDIR");
  snprintf(buf, sizeof buf, "%s/sl_check_%ld_%s", dir ? dir : "/tmp", (long)getpid(), name);
  return buf;
}

void write_file(const char *path, const void *data, size_t len) {
  FILE *fp = fopen(path, "wb");
  if (!fp) abort();
  if (len && fwrite(data, 1, len, fp) != len) abort();
  fclose(fp);
}

check_result run_check(char format, const char *path) {
  check_result r = {0};
  FILE *out = tmpfile();
  FILE *in = fopen(path, "rb");
  if (!out || !in) abort();
  r.ctx = (sl_check_ctx){.file = path, .out = out, .max_problems = 1000};
  r.rc = format == 'j' ? sl_check_json(&r.ctx, in) : sl_check_proto(&r.ctx, in);
  fclose(in);
  r.problems = r.ctx.problems;
  r.warnings = r.ctx.warnings;
  long n = ftell(out);
  rewind(out);
  r.text = calloc((size_t)n + 1, 1);
  if (!r.text || fread(r.text, 1, (size_t)n, out) != (size_t)n) abort();
  fclose(out);
  return r;
}

void free_result(check_result *r) {
  free(r->text);
  r->text = NULL;
}

/*
** sl_test_file.c — test helper: read a whole file into memory.
*/
#include "sl_test_file.h"

#include <stdio.h>
#include <stdlib.h>

char *sl_test_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  long n;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
    buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
      free(buf);
      buf = NULL;
    }
    if (buf) {
      buf[n] = '\0';
      if (len) *len = (size_t)n;
    }
  }
  fclose(f);
  return buf;
}

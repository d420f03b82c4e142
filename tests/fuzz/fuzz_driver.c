/*
** fuzz_driver.c — a plain main() for the libFuzzer targets, so ctest exercises
** them with gcc: it replays every file of the corpus directories given on the
** command line, plus cheap deterministic mutations of each (every truncation
** point on a stride, single-byte flips and deletions), through
** LLVMFuzzerTestOneInput. Errors the targets print go to /dev/null unless
** SL_FUZZ_VERBOSE is set.
**
**   fuzz_records_replay tests/fuzz/corpus/records [more dirs or files...]
*/
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t runs;

static void run(const uint8_t *d, size_t n) {
  /* copy so reads past the end are caught by ASan */
  uint8_t *c = malloc(n ? n : 1);
  if (!c) return;
  memcpy(c, d, n);
  LLVMFuzzerTestOneInput(c, n);
  free(c);
  runs++;
}

/* Mutations per corpus file (SL_FUZZ_ROUNDS; slow targets such as the schema
** compiler use fewer); truncations are two thirds of that. */
static size_t rounds = 300;

static void mutate_and_run(const uint8_t *d, size_t n) {
  run(d, n);
  size_t stride = n / (rounds * 2 / 3 + 1) + 1;
  for (size_t len = 0; len < n; len += stride) run(d, len); /* truncations */
  uint8_t *m = malloc(n ? n : 1);
  if (!m) return;
  static const uint8_t repl[] = {'"', '[', ']', '{', '}', ',', ':', '-', '9', 'e', '0', 0, 0xff, 'n'};
  uint32_t seed = 2166136261u;
  for (size_t k = 0; k < rounds && n; k++) {
    seed = seed * 1103515245u + 12345u;
    size_t pos = (seed >> 8) % n;
    memcpy(m, d, n);
    m[pos] = repl[(seed >> 4) % sizeof repl];
    run(m, n);
    /* deletion of one byte */
    memcpy(m, d, pos);
    memcpy(m + pos, d + pos + 1, n - pos - 1);
    run(m, n - 1);
  }
  free(m);
}

static int replay_path(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "fuzz driver: %s: not found\n", path);
    return -1;
  }
  if (S_ISDIR(st.st_mode)) {
    DIR *dir = opendir(path);
    if (!dir) return -1;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(dir)) != NULL) {
      if (e->d_name[0] == '.') continue;
      char sub[4096];
      snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
      if (replay_path(sub) != 0) rc = -1;
    }
    closedir(dir);
    return rc;
  }
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  uint8_t *buf = malloc((size_t)st.st_size + 1);
  size_t n = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
  fclose(f);
  if (!buf) return -1;
  mutate_and_run(buf, n);
  free(buf);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
    return 2;
  }
  const char *r = getenv("SL_FUZZ_ROUNDS");
  if (r && atoi(r) > 0) rounds = (size_t)atoi(r);
  if (!getenv("SL_FUZZ_VERBOSE") && !freopen("/dev/null", "w", stderr)) return 1;
  int rc = 0;
  for (int i = 1; i < argc; i++)
    if (replay_path(argv[i]) != 0) rc = 1;
  printf("%s: %zu inputs replayed\n", argv[0], runs);
  return rc;
}

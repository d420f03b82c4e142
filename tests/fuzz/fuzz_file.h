/*
** fuzz_file.h — for targets whose reader takes a path: write the input to a file
** in a private folder made once per process (removed at exit).
*/
#ifndef SL_FUZZ_FILE_H
#define SL_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char fuzz_dir_[64];

static void fuzz_dir_remove_(void) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", fuzz_dir_);
  if (system(cmd) != 0) fprintf(stderr, "fuzz: could not remove %s\n", fuzz_dir_);
}

/* The per-process folder (created on first use): in /dev/shm when there is one, since
** on a disk file system (ext4) rewriting a file in place flushes it to the disk at every
** close, which cost the path-taking targets most of their time. */
static const char *fuzz_dir(void) {
  if (!fuzz_dir_[0]) {
    snprintf(fuzz_dir_, sizeof fuzz_dir_, "/dev/shm/sl-fuzz-XXXXXX");
    if (!mkdtemp(fuzz_dir_)) {
      snprintf(fuzz_dir_, sizeof fuzz_dir_, "/tmp/sl-fuzz-XXXXXX");
      if (!mkdtemp(fuzz_dir_)) abort();
    }
    atexit(fuzz_dir_remove_);
  }
  return fuzz_dir_;
}

/* <fuzz_dir>/<name> holding data; the path is in a static buffer. The old file is
** removed first (a new file, not a truncated one: no flush on ext4 either). */
static const char *fuzz_write(const char *name, const uint8_t *data, size_t size) {
  static char path[256];
  snprintf(path, sizeof path, "%s/%s", fuzz_dir(), name);
  (void)unlink(path);
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  if (size && fwrite(data, 1, size, f) != size) abort();
  fclose(f);
  return path;
}

#endif

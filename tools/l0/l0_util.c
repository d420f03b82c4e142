/*
** l0_util.c — files and processes for `swimlane l0`.
*/
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "l0_internal.h"
#include "sl_base.h"
#include "sl_file.h"
#include "sl_mem.h"

char *sl_l0_read_file(const char *path, size_t *len) {
  char *buf;
  size_t n;
  sl_err err = SL_ERR_INIT;
  if (sl_file_read(path, &buf, &n, &err) != SL_OK) {
    (void)sl_err_report(&err);
    return NULL;
  }
  if (len) *len = n;
  return buf;
}

int sl_l0_write_json(const char *path, const cJSON *doc) {
  char *text = cJSON_Print(doc);
  if (!text) sl_mem_fail(0); /* cJSON allocates on its own: its failure ends the one way */
  int rc = sl_file_write_line(path, text);
  cJSON_free(text);
  return rc;
}

int sl_l0_spawn(char *const argv[], const char *log_path) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    sl_error(NULL, "cannot start %s: %s", argv[0], strerror(errno));
    return -1;
  }
  if (pid == 0) {
    if (log_path) {
      int fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
      }
    }
    execvp(argv[0], argv);
    fprintf(stderr, "swimlane: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  if (WIFSIGNALED(st)) return 128 + WTERMSIG(st);
  return -1;
}

/*
** test_base_mem.c — the out-of-memory policy. Each failure runs in a child
** process (it ends the process by design); the parent checks the exit status,
** the one message, that open outputs' temporaries are gone and that the
** registered cleanups ran.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sl_file.h"
#include "sl_map.h"
#include "sl_mem.h"
#include "sl_vec.h"

static char g_dir[64];
static char g_marker[128];

/* Run fn in a child with stderr into a pipe; returns the exit status, stderr in msg. */
static int in_child(void (*fn)(void), char *msg, size_t n) {
  int fds[2];
  assert_int_equal(pipe(fds), 0);
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    fn();
    _exit(42); /* fn did not end the process */
  }
  close(fds[1]);
  size_t got = 0;
  ssize_t r;
  while (got + 1 < n && (r = read(fds[0], msg + got, n - 1 - got)) > 0) got += (size_t)r;
  msg[got] = '\0';
  close(fds[0]);
  int status;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status));
  return WEXITSTATUS(status);
}

static void remove_marker(void) { unlink(g_marker); }

/* An output half written, a cleanup registered, then the 3rd allocation fails. */
static void fail_while_writing(void) {
  sl_outfile of;
  char target[128];
  snprintf(target, sizeof target, "%s/out.json", g_dir);
  if (sl_outfile_open(&of, target) != 0) _exit(40);
  fputs("{\"half\":", of.fp);
  fflush(of.fp);
  sl_mem_on_failure(remove_marker);
  sl_mem_fail_after(3);
  SL_VEC(int) v = {0};
  for (int i = 0; i < 1000000; i++) sl_vec_push(&v, i); /* the growth fails */
}

static void failure_removes_temporaries_and_runs_cleanups(void **state) {
  (void)state;
  snprintf(g_dir, sizeof g_dir, "%s", "/tmp/sl_base_mem_XXXXXX");
  assert_non_null(mkdtemp(g_dir));
  snprintf(g_marker, sizeof g_marker, "%s/marker", g_dir);
  FILE *f = fopen(g_marker, "w");
  assert_non_null(f);
  fclose(f);
  char msg[512];
  assert_int_equal(in_child(fail_while_writing, msg, sizeof msg), 1);
  /* the 3rd allocation is the vector's third doubling: 64 ints */
  assert_string_equal(msg, "swimlane: out of memory (could not allocate 256 bytes)\n");
  struct stat st;
  assert_int_not_equal(stat(g_marker, &st), 0); /* the cleanup ran */
  char cmd[160];
  snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", g_dir); /* no target, no temporary */
  assert_int_equal(system(cmd), 0);
  rmdir(g_dir);
}

static void overflowing_size(void) { (void)sl_mem_calloc(SIZE_MAX / 2, 4); }
static void overflowing_array(void) { (void)sl_mem_array(NULL, SIZE_MAX / 8 + 1, 16); }
static void failing_map(void) {
  sl_map m;
  sl_map_init(&m, SL_MAP_STR);
  sl_mem_fail_after(2); /* the map's first table is 3 allocations */
  sl_map_str_put(&m, "k", 1, 1);
}

static void every_path_ends_the_same_way(void **state) {
  (void)state;
  char msg[512];
  assert_int_equal(in_child(overflowing_size, msg, sizeof msg), 1);
  assert_non_null(strstr(msg, "swimlane: out of memory"));
  assert_int_equal(in_child(overflowing_array, msg, sizeof msg), 1);
  assert_non_null(strstr(msg, "swimlane: out of memory"));
  assert_int_equal(in_child(failing_map, msg, sizeof msg), 1);
  assert_string_equal(msg, "swimlane: out of memory (could not allocate 128 bytes)\n");
}

static void allocations_succeed_normally(void **state) {
  (void)state;
  char *s = sl_mem_printf("%s-%d", "rank", 3);
  assert_string_equal(s, "rank-3");
  sl_mem_free(s);
  s = sl_mem_strndup("abcdef", 3);
  assert_string_equal(s, "abc");
  sl_mem_free(s);
  s = sl_mem_strndup("ab", 10);
  assert_string_equal(s, "ab");
  sl_mem_free(s);
  unsigned char *z = sl_mem_calloc(100, 3);
  for (int i = 0; i < 300; i++) assert_int_equal(z[i], 0);
  z = sl_mem_realloc(z, 1000);
  assert_null(sl_mem_realloc(z, 0)); /* size 0 frees */
  void *one = sl_mem_alloc(0);
  assert_non_null(one);
  sl_mem_free(one);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(allocations_succeed_normally),
      cmocka_unit_test(failure_removes_temporaries_and_runs_cleanups),
      cmocka_unit_test(every_path_ends_the_same_way),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

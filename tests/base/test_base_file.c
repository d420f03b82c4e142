/*
** test_base_file.c — whole-file reading, all-or-nothing output (new file,
** symlink, device, folder, full disk) and error values (first one kept).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sl_err.h"
#include "sl_file.h"

static char g_dir[64];

static int make_dir(void **state) {
  (void)state;
  snprintf(g_dir, sizeof g_dir, "%s", "/tmp/sl_base_file_XXXXXX");
  return mkdtemp(g_dir) ? 0 : -1;
}

static int remove_dir(void **state) {
  (void)state;
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
  return system(cmd) == 0 ? 0 : -1;
}

static char *in_dir(const char *name) {
  static char path[4][PATH_MAX];
  static int k;
  char *p = path[k++ % 4];
  snprintf(p, PATH_MAX, "%s/%s", g_dir, name);
  return p;
}

/* Number of entries in the test folder (temporaries left behind would show). */
static int entries(void) {
  DIR *d = opendir(g_dir);
  int n = 0;
  for (struct dirent *e; (e = readdir(d));) n += e->d_name[0] != '.';
  closedir(d);
  return n;
}

static void write_then_read_back(void **state) {
  (void)state;
  sl_err err = SL_ERR_INIT;
  char big[200000];
  for (size_t i = 0; i < sizeof big; i++) big[i] = (char)('a' + i % 23);
  assert_int_equal(sl_file_write(in_dir("big"), big, sizeof big, &err), SL_OK);
  assert_false(sl_err_is_set(&err));
  char *data;
  size_t len;
  assert_int_equal(sl_file_read(in_dir("big"), &data, &len, &err), SL_OK);
  assert_int_equal(len, sizeof big);
  assert_memory_equal(data, big, sizeof big);
  assert_int_equal(data[len], '\0');
  free(data);
  assert_int_equal(sl_file_write(in_dir("empty"), "", 0, &err), SL_OK);
  assert_int_equal(sl_file_read(in_dir("empty"), &data, &len, &err), SL_OK);
  assert_int_equal(len, 0);
  assert_string_equal(data, "");
  free(data);
  assert_int_equal(entries(), 2); /* no temporaries */
}

/* sl_notes keep messages in order, each with its file, until printed or freed. */
static void notes_keep_order(void **state) {
  (void)state;
  sl_notes l = {0};
  sl_notes_add(&l, 1, "a.json", "%d dropped", 3);
  sl_notes_add(&l, 0, NULL, "balance off");
  assert_int_equal(l.n, 2);
  assert_string_equal(l.v[0].what.file, "a.json");
  assert_string_equal(l.v[0].what.msg, "3 dropped");
  assert_true(l.v[0].warning);
  assert_null(l.v[1].what.file);
  assert_string_equal(l.v[1].what.msg, "balance off");
  assert_false(l.v[1].warning);
  sl_notes_free(&l);
  assert_int_equal(l.n, 0);
  assert_null(l.v);
  sl_notes_print(&l); /* nothing left: prints nothing */
}

static void read_errors_name_the_file(void **state) {
  (void)state;
  sl_err err = SL_ERR_INIT;
  char *data = (char *)1;
  size_t len = 7;
  assert_int_equal(sl_file_read(in_dir("missing"), &data, &len, &err), SL_FAIL);
  assert_null(data);
  assert_int_equal(len, 0);
  assert_string_equal(err.file, in_dir("missing"));
  assert_string_equal(err.msg, "cannot read: No such file or directory");
  sl_err_clear(&err);
  assert_int_equal(sl_file_read(g_dir, &data, &len, &err), SL_FAIL);
  assert_string_equal(err.msg, "cannot read: Is a directory");
  assert_int_equal(sl_err_report(&err), 1);
  assert_null(err.msg);
}

static void read_from_a_pipe_without_size(void **state) {
  (void)state;
  sl_err err = SL_ERR_INIT;
  char *data;
  size_t len;
  /* /proc files report size 0: the reader must not trust st_size */
  assert_int_equal(sl_file_read("/proc/self/status", &data, &len, &err), SL_OK);
  assert_true(len > 0);
  assert_non_null(strstr(data, "Name:"));
  free(data);
}

static void symlink_is_kept_and_its_file_replaced(void **state) {
  (void)state;
  sl_err err = SL_ERR_INIT;
  assert_int_equal(sl_file_write(in_dir("real"), "old", 3, &err), SL_OK);
  assert_int_equal(symlink("real", in_dir("link")), 0);
  assert_int_equal(sl_file_write(in_dir("link"), "new!", 4, &err), SL_OK);
  struct stat st;
  assert_int_equal(lstat(in_dir("link"), &st), 0);
  assert_true(S_ISLNK(st.st_mode));
  char *data;
  size_t len;
  assert_int_equal(sl_file_read(in_dir("real"), &data, &len, &err), SL_OK);
  assert_string_equal(data, "new!");
  free(data);
  unlink(in_dir("link"));
  unlink(in_dir("real"));
}

static void device_is_written_in_place(void **state) {
  (void)state;
  sl_err err = SL_ERR_INIT;
  assert_int_equal(sl_file_write("/dev/null", "x", 1, &err), SL_OK);
  struct stat st;
  assert_int_equal(stat("/dev/null", &st), 0);
  assert_true(S_ISCHR(st.st_mode)); /* not replaced by a regular file */
  /* a full disk: the write fails at flush, the error names the file */
  assert_int_equal(sl_file_write("/dev/full", "x", 1, &err), SL_FAIL);
  assert_string_equal(err.file, "/dev/full");
  assert_string_equal(err.msg, "write failed: No space left on device");
  sl_err_clear(&err);
}

static void folder_is_refused_and_nothing_is_left(void **state) {
  (void)state;
  sl_err err = SL_ERR_INIT;
  int before = entries();
  assert_int_equal(sl_file_write(g_dir, "x", 1, &err), SL_FAIL);
  assert_string_equal(err.msg, "cannot write the output here: Is a directory");
  sl_err_clear(&err);
  assert_int_equal(sl_file_write(in_dir("no/such/folder"), "x", 1, &err), SL_FAIL);
  assert_string_equal(err.msg, "cannot create output file: No such file or directory");
  sl_err_clear(&err);
  /* an aborted outfile leaves neither target nor temporary */
  sl_outfile of;
  assert_int_equal(sl_outfile_begin(&of, in_dir("aborted"), &err), SL_OK);
  fputs("half", of.fp);
  assert_int_equal(entries(), before + 1); /* the temporary */
  sl_outfile_abort(&of);
  assert_int_equal(entries(), before);
}

static void first_error_is_kept(void **state) {
  (void)state;
  sl_err err = SL_ERR_INIT;
  assert_false(sl_err_is_set(&err));
  assert_int_equal(sl_err_set(&err, "a.json", "line %d: bad", 3), SL_FAIL);
  assert_int_equal(sl_err_set(&err, "b.json", "later"), SL_FAIL);
  assert_true(sl_err_is_set(&err));
  assert_string_equal(err.file, "a.json");
  assert_string_equal(err.msg, "line 3: bad");
  sl_err_clear(&err);
  assert_int_equal(sl_err_set(&err, NULL, "no file"), SL_FAIL);
  assert_null(err.file);
  assert_string_equal(err.msg, "no file");
  sl_err_clear(&err);
  assert_int_equal(sl_err_set(NULL, "x", "dropped"), SL_FAIL); /* no object: nothing kept */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(write_then_read_back),
      cmocka_unit_test(read_errors_name_the_file),
      cmocka_unit_test(notes_keep_order),
      cmocka_unit_test(read_from_a_pipe_without_size),
      cmocka_unit_test(symlink_is_kept_and_its_file_replaced),
      cmocka_unit_test(device_is_written_in_place),
      cmocka_unit_test(folder_is_refused_and_nothing_is_left),
      cmocka_unit_test(first_error_is_kept),
  };
  return cmocka_run_group_tests(tests, make_dir, remove_dir);
}

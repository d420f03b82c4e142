/*
** test_opt.c — the option parser every command uses (host/base/sl_opt.c): each
** spelling of each kind of option, the positional forms, the one usage-error
** format, --help generated from the table, and the argv helpers.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sl_opt.h"

/* ---- a command with one option of every kind ------------------------------------- */

typedef struct targets {
  const char *out, *fmt, *arg;
  int quiet, level, n, calls;
  const char *seen[4];
} targets;

static targets T;

static int collect(void *target, const char *value, char *err, size_t errlen) {
  targets *t = target;
  if (!strcmp(value, "bad")) return snprintf(err, errlen, "--tag refuses '%s'", value), -1;
  if (t->calls < 4) t->seen[t->calls] = value;
  t->calls++;
  return 0;
}

static const sl_opt table[] = {
    {.name = "output", .short_name = 'o', .kind = SL_OPT_STRING, .arg = "OUT", .target = &T.out,
     .help = "where it goes\nsecond line"},
    {.name = "quiet", .short_name = 'q', .kind = SL_OPT_FLAG, .target = &T.quiet, .help = "say less"},
    {.name = "format", .kind = SL_OPT_CHOICE, .choices = "json|proto|text", .target = &T.fmt, .help = "the format"},
    {.name = "n", .kind = SL_OPT_INT, .arg = "N", .lo = 1, .hi = 9, .target = &T.n, .help = "a count"},
    {.name = "level", .kind = SL_OPT_INT, .arg = "L", .lo = 0, .hi = 4, .set = 4, .flags = SL_OPT_OPTIONAL_VALUE,
     .target = &T.level, .help = "optional value"},
    {.name = "tag", .kind = SL_OPT_CALL, .arg = "T", .call = collect, .target = &T, .help = "repeatable"},
    {.name = "secret", .kind = SL_OPT_FLAG, .target = &T.quiet},
    {.name = NULL},
};

static const sl_opt_spec spec = {.cmd = "demo", .synopsis = "[FILE] [options]\n--other", .about = "About.",
                                 .opts = table, .arg = &T.arg};

/* ---- stderr / stdout capture -------------------------------------------------------- */

static char g_text[8192];

/* Parse argv (NULL-terminated, argv[0] = "demo") with stream fd captured into g_text. */
static int parse_capturing(const sl_opt_spec *s, int fd, const char **argv) {
  int argc = 0;
  while (argv[argc]) argc++;
  memset(&T, 0, sizeof T);
  FILE *tmp = tmpfile();
  assert_non_null(tmp);
  fflush(fd == 1 ? stdout : stderr);
  int saved = dup(fd);
  dup2(fileno(tmp), fd);
  int rc = sl_opt_parse(s, argc, (char **)argv);
  fflush(fd == 1 ? stdout : stderr);
  dup2(saved, fd);
  close(saved);
  rewind(tmp);
  size_t n = fread(g_text, 1, sizeof g_text - 1, tmp);
  g_text[n] = '\0';
  fclose(tmp);
  return rc;
}

#define PARSE(...) parse_capturing(&spec, 2, (const char *[]){"demo", __VA_ARGS__, NULL})

/* rc 2 and exactly the one usage-error form with this message. */
static void expect_usage_error(int rc, const char *what) {
  char want[1024];
  snprintf(want, sizeof want, "swimlane demo: %s\nTry 'swimlane demo --help' for the options.\n", what);
  assert_int_equal(rc, 2);
  assert_string_equal(g_text, want);
}

/* ---- tests -------------------------------------------------------------------------- */

static void test_value_spellings(void **state) {
  (void)state;
  assert_int_equal(PARSE("--output", "a.json"), SL_OPT_GO);
  assert_string_equal(T.out, "a.json");
  assert_int_equal(PARSE("--output=b.json"), SL_OPT_GO);
  assert_string_equal(T.out, "b.json");
  assert_int_equal(PARSE("-o", "c.json"), SL_OPT_GO);
  assert_string_equal(T.out, "c.json");
  assert_int_equal(PARSE("-o=d.json"), SL_OPT_GO);
  assert_string_equal(T.out, "d.json");
  assert_int_equal(PARSE("--output="), SL_OPT_GO); /* an empty value is a value */
  assert_string_equal(T.out, "");
  assert_int_equal(PARSE("--output", "-"), SL_OPT_GO); /* "-" (stdout) is a value */
  assert_string_equal(T.out, "-");
  assert_string_equal(g_text, "");
}

static void test_flags(void **state) {
  (void)state;
  assert_int_equal(PARSE("-q"), SL_OPT_GO);
  assert_int_equal(T.quiet, 1);
  assert_int_equal(PARSE("--quiet"), SL_OPT_GO);
  assert_int_equal(T.quiet, 1);
  expect_usage_error(PARSE("--quiet=1"), "--quiet takes no value (got '--quiet=1')");
  expect_usage_error(PARSE("-q=1"), "-q takes no value (got '-q=1')");
}

static void test_int_and_choice(void **state) {
  (void)state;
  assert_int_equal(PARSE("--n", "9"), SL_OPT_GO);
  assert_int_equal(T.n, 9);
  assert_int_equal(PARSE("--n=1"), SL_OPT_GO);
  assert_int_equal(T.n, 1);
  expect_usage_error(PARSE("--n", "10"), "--n expects an integer in 1..9, got '10'");
  expect_usage_error(PARSE("--n=3x"), "--n expects an integer in 1..9, got '3x'");
  expect_usage_error(PARSE("--n="), "--n expects an integer in 1..9, got ''");
  assert_int_equal(PARSE("--format=proto"), SL_OPT_GO);
  assert_string_equal(T.fmt, "proto");
  assert_int_equal(PARSE("--format", "text"), SL_OPT_GO);
  assert_string_equal(T.fmt, "text");
  expect_usage_error(PARSE("--format", "xml"), "--format expects 'json', 'proto' or 'text', got 'xml'");
  expect_usage_error(PARSE("--format=jso"), "--format expects 'json', 'proto' or 'text', got 'jso'");
}

static void test_optional_value(void **state) {
  (void)state;
  assert_int_equal(PARSE("--level"), SL_OPT_GO);
  assert_int_equal(T.level, 4);
  assert_int_equal(PARSE("--level", "2"), SL_OPT_GO);
  assert_int_equal(T.level, 2);
  assert_null(T.arg);
  assert_int_equal(PARSE("--level=0"), SL_OPT_GO);
  assert_int_equal(T.level, 0);
  /* a non-integer after it is the positional, not its value */
  assert_int_equal(PARSE("--level", "file.json"), SL_OPT_GO);
  assert_int_equal(T.level, 4);
  assert_string_equal(T.arg, "file.json");
  expect_usage_error(PARSE("--level", "7"), "--level expects an integer in 0..4, got '7'");
}

static void test_call_repeatable(void **state) {
  (void)state;
  assert_int_equal(PARSE("--tag", "a", "--tag=b", "--tag", "c"), SL_OPT_GO);
  assert_int_equal(T.calls, 3);
  assert_string_equal(T.seen[0], "a");
  assert_string_equal(T.seen[1], "b");
  assert_string_equal(T.seen[2], "c");
  expect_usage_error(PARSE("--tag=bad"), "--tag refuses 'bad'");
}

static void test_positionals(void **state) {
  (void)state;
  assert_int_equal(PARSE("in.json", "-q"), SL_OPT_GO);
  assert_string_equal(T.arg, "in.json");
  assert_int_equal(PARSE("-"), SL_OPT_GO);
  assert_string_equal(T.arg, "-");
  expect_usage_error(PARSE("a", "b"), "unexpected argument 'b'");
  assert_int_equal(PARSE("--", "-q"), SL_OPT_GO); /* after "--" nothing is an option */
  assert_string_equal(T.arg, "-q");
  assert_int_equal(T.quiet, 0);
}

static void test_mistakes(void **state) {
  (void)state;
  expect_usage_error(PARSE("--bogus"), "unknown option '--bogus'");
  expect_usage_error(PARSE("--bogus=1"), "unknown option '--bogus'");
  expect_usage_error(PARSE("-x"), "unknown option '-x'");
  expect_usage_error(PARSE("-qq"), "unknown option '-qq'");
  expect_usage_error(PARSE("--output"), "--output needs a value");
  expect_usage_error(PARSE("-o"), "-o needs a value");
  expect_usage_error(PARSE("--out", "x"), "unknown option '--out'"); /* no prefix matching */
}

static const char *g_sides[2][4];
static int g_nside[2], g_side;

static int take_side(void *ctx, const char *arg, char *err, size_t errlen) {
  (void)ctx, (void)err, (void)errlen;
  if (!strcmp(arg, "--")) return g_side++ ? -1 : 0;
  g_sides[g_side][g_nside[g_side]++] = arg;
  return 0;
}

static void test_dashdash_separator(void **state) {
  (void)state;
  sl_opt_spec s = spec;
  s.arg = NULL;
  s.on_arg = take_side;
  s.dashdash_is_arg = 1;
  g_side = g_nside[0] = g_nside[1] = 0;
  assert_int_equal(parse_capturing(&s, 2, (const char *[]){"demo", "a", "b", "--", "c", "-q", NULL}), SL_OPT_GO);
  assert_int_equal(g_nside[0], 2);
  assert_int_equal(g_nside[1], 1);
  assert_string_equal(g_sides[1][0], "c");
  assert_int_equal(T.quiet, 1); /* options still count after the separator */
  g_side = g_nside[0] = g_nside[1] = 0;
  assert_int_equal(parse_capturing(&s, 2, (const char *[]){"demo", "a", "--", "b", "--", NULL}), 2);
  assert_non_null(strstr(g_text, "swimlane demo: unexpected argument '--'\n"));
}

static void test_help_from_table(void **state) {
  (void)state;
  assert_int_equal(parse_capturing(&spec, 1, (const char *[]){"demo", "--help", NULL}), 0);
  const char *want = "usage: swimlane demo [FILE] [options]\n"
                     "       swimlane demo --other\n"
                     "\n"
                     "About.\n"
                     "\n"
                     "options:\n"
                     "  -o, --output OUT        where it goes\n"
                     "                          second line\n"
                     "  -q, --quiet             say less\n"
                     "  --format json|proto|text\n"
                     "                          the format\n"
                     "  --n N                   a count\n"
                     "  --level[=L]             optional value\n"
                     "  --tag T                 repeatable\n"
                     "  -h, --help              print this help\n";
  assert_string_equal(g_text, want);
  assert_null(strstr(g_text, "secret")); /* no help text: hidden */
  assert_int_equal(parse_capturing(&spec, 1, (const char *[]){"demo", "-q", "-h", "--bogus", NULL}), 0);
  assert_non_null(strstr(g_text, "usage: swimlane demo"));
}

static void test_value_follows(void **state) {
  (void)state;
  assert_int_equal(sl_opt_value_follows(table, "--output"), 1);
  assert_int_equal(sl_opt_value_follows(table, "-o"), 1);
  assert_int_equal(sl_opt_value_follows(table, "--output=x"), 0);
  assert_int_equal(sl_opt_value_follows(table, "--quiet"), 0);
  assert_int_equal(sl_opt_value_follows(table, "--level"), 0); /* optional: never blindly */
  assert_int_equal(sl_opt_value_follows(table, "--bogus"), 0);
  assert_int_equal(sl_opt_value_follows(table, "file"), 0);
}

static void test_split_values(void **state) {
  (void)state;
  const char *argv[] = {"demo", "--output=a=b", "-o=c", "--quiet=1", "--bogus=2", "x=y", "--n=3", NULL};
  int n;
  char **v = sl_opt_split_values(table, 7, (char **)argv, &n);
  assert_non_null(v);
  const char *want[] = {"demo", "--output", "a=b", "-o", "c", "--quiet=1", "--bogus=2", "x=y", "--n", "3"};
  assert_int_equal(n, 10);
  for (int i = 0; i < n; i++) assert_string_equal(v[i], want[i]);
  assert_null(v[n]);
  assert_string_equal(argv[1], "--output=a=b"); /* the original is untouched */
  free(v);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_value_spellings), cmocka_unit_test(test_flags),
      cmocka_unit_test(test_int_and_choice),  cmocka_unit_test(test_optional_value),
      cmocka_unit_test(test_call_repeatable), cmocka_unit_test(test_positionals),
      cmocka_unit_test(test_mistakes),        cmocka_unit_test(test_dashdash_separator),
      cmocka_unit_test(test_help_from_table), cmocka_unit_test(test_value_follows),
      cmocka_unit_test(test_split_values),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
** sl_opt.c — the table-driven option parser (sl_opt.h).
**
** One left-to-right pass over argv. Each argument is, in this order of tests:
** "--" (end of options, or a positional for commands that use it as a separator),
** "--name[=value]" (looked up by long name), "-c" (by short name; "-" alone is a
** positional: stdin/stdout), or a positional. An option that takes a value reads
** it from "=value" or, failing that, from the next argument; an optional-value
** integer reads the next argument only when it is an integer. Every mistake stops
** the pass with one usage error; nothing is stored after it.
*/
#include "sl_opt.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "sl_mem.h"

enum { ERR_LEN = 512, HELP_COL = 26 };

int sl_opt_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "swimlane %s: ", cmd);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\nTry 'swimlane %s --help' for the options.\n", cmd);
  va_end(ap);
  return 2;
}

static int takes_value(const sl_opt *o) {
  return o->kind != SL_OPT_FLAG && !(o->kind == SL_OPT_CALL && !o->arg);
}

static const sl_opt *find_long(const sl_opt *opts, const char *name, size_t len) {
  for (const sl_opt *o = opts; o->name; o++)
    if (strlen(o->name) == len && !strncmp(o->name, name, len)) return o;
  return NULL;
}

static const sl_opt *find_short(const sl_opt *opts, char c) {
  for (const sl_opt *o = opts; o->name; o++)
    if (o->short_name && o->short_name == c) return o;
  return NULL;
}

/* A whole decimal integer; 0 ok, -1 on anything else (empty, trailing text, overflow). */
static int parse_long(const char *s, long *out) {
  if (!s || !*s) return -1;
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (*end || errno) return -1;
  *out = v;
  return 0;
}

/* Is value one of the '|'-separated choices? */
static int is_choice(const char *choices, const char *value) {
  size_t n = strlen(value);
  for (const char *p = choices; *p;) {
    const char *bar = strchr(p, '|');
    size_t len = bar ? (size_t)(bar - p) : strlen(p);
    if (len == n && !strncmp(p, value, n)) return 1;
    p += len + (bar != NULL);
  }
  return 0;
}

/* "'a' or 'b'", "'a', 'b' or 'c'" from "a|b|c". */
static void choice_list(const char *choices, char *buf, size_t n) {
  size_t k = 0, count = 1, i = 0;
  for (const char *p = choices; *p; p++) count += *p == '|';
  buf[0] = '\0';
  for (const char *p = choices; *p && k < n; i++) {
    const char *bar = strchr(p, '|');
    int len = bar ? (int)(bar - p) : (int)strlen(p);
    const char *sep = i == 0 ? "" : i + 1 == count ? " or " : ", ";
    k += (size_t)snprintf(buf + k, n - k, "%s'%.*s'", sep, len, p);
    p += len + (bar != NULL);
  }
}

/* Store value (NULL: none given) into o's target; 0 ok, -1 with err set. */
static int apply(const sl_opt *o, const char *value, char *err) {
  long v;
  char list[256];
  switch (o->kind) {
  case SL_OPT_FLAG: *(int *)o->target = o->set ? o->set : 1; return 0;
  case SL_OPT_STRING: *(const char **)o->target = value; return 0;
  case SL_OPT_INT:
    if (!value) {
      *(int *)o->target = o->set;
      return 0;
    }
    if (parse_long(value, &v) || v < o->lo || v > o->hi) {
      snprintf(err, ERR_LEN, "--%s expects an integer in %ld..%ld, got '%s'", o->name, o->lo, o->hi, value);
      return -1;
    }
    *(int *)o->target = (int)v;
    return 0;
  case SL_OPT_CHOICE:
    if (!is_choice(o->choices, value)) {
      choice_list(o->choices, list, sizeof list);
      snprintf(err, ERR_LEN, "--%s expects %s, got '%s'", o->name, list, value);
      return -1;
    }
    *(const char **)o->target = value;
    return 0;
  case SL_OPT_CALL:
    err[0] = '\0';
    if (o->call(o->target, value, err, ERR_LEN) == 0) return 0;
    if (!err[0]) snprintf(err, ERR_LEN, "bad value for --%s: '%s'", o->name, value ? value : "");
    return -1;
  }
  return -1;
}

/* A positional argument; 0 ok, -1 with err set. */
static int take_arg(const sl_opt_spec *spec, const char *a, char *err) {
  if (spec->on_arg) {
    err[0] = '\0';
    if (spec->on_arg(spec->arg_ctx, a, err, ERR_LEN) == 0) return 0;
    if (!err[0]) snprintf(err, ERR_LEN, "unexpected argument '%s'", a);
    return -1;
  }
  if (spec->arg && !*spec->arg) {
    *spec->arg = a;
    return 0;
  }
  snprintf(err, ERR_LEN, "unexpected argument '%s'", a);
  return -1;
}

/* argv[*i] is an option: find it, read its value, store it. 0 ok, 1 help, -1 err. */
static int take_opt(const sl_opt_spec *spec, int argc, char **argv, int *i, char *err) {
  const char *a = argv[*i], *eq = NULL;
  const sl_opt *o;
  if (a[1] == '-') {
    eq = strchr(a + 2, '=');
    size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
    if (len == 4 && !strncmp(a + 2, "help", 4) && !eq) return 1;
    o = find_long(spec->opts, a + 2, len);
  } else { /* -c, or -c=value */
    if (a[1] == 'h' && !a[2]) return 1;
    eq = a[2] == '=' ? a + 2 : NULL;
    o = a[2] && !eq ? NULL : find_short(spec->opts, a[1]);
  }
  if (!o) {
    snprintf(err, ERR_LEN, "unknown option '%.*s'", eq ? (int)(eq - a) : (int)strlen(a), a);
    return -1;
  }
  const char *value = eq ? eq + 1 : NULL;
  if (!takes_value(o)) {
    if (value) {
      snprintf(err, ERR_LEN, "%.*s takes no value (got '%s')", (int)(eq - a), a, a);
      return -1;
    }
  } else if (!value && (o->flags & SL_OPT_OPTIONAL_VALUE)) {
    long v;
    if (*i + 1 < argc && argv[*i + 1][0] != '-' && parse_long(argv[*i + 1], &v) == 0) value = argv[++*i];
  } else if (!value) {
    if (*i + 1 >= argc) {
      snprintf(err, ERR_LEN, "%s needs a value", a);
      return -1;
    }
    value = argv[++*i];
  }
  return apply(o, value, err);
}

int sl_opt_parse(const sl_opt_spec *spec, int argc, char **argv) {
  char err[ERR_LEN];
  int options_end = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int rc = 0;
    if (!options_end && !strcmp(a, "--")) {
      if (spec->dashdash_is_arg) rc = take_arg(spec, a, err);
      else options_end = 1;
    } else if (!options_end && a[0] == '-' && a[1]) {
      rc = take_opt(spec, argc, argv, &i, err);
    } else {
      rc = take_arg(spec, a, err);
    }
    if (rc == 1) {
      sl_opt_help(stdout, spec);
      return 0;
    }
    if (rc != 0) return sl_opt_usage_error(spec->cmd, "%s", err);
  }
  return SL_OPT_GO;
}

/* "-o, --output DIR", "--enable-chip-swimlane[=N]", "--format json|proto". */
static void opt_left(const sl_opt *o, char *buf, size_t n) {
  size_t k = 0;
  if (o->short_name) k = (size_t)snprintf(buf, n, "-%c, ", o->short_name);
  k += (size_t)snprintf(buf + k, n - k, "--%s", o->name);
  const char *arg = o->arg ? o->arg : o->kind == SL_OPT_CHOICE ? o->choices : NULL;
  if (k < n && arg && takes_value(o))
    snprintf(buf + k, n - k, (o->flags & SL_OPT_OPTIONAL_VALUE) ? "[=%s]" : " %s", arg);
}

/* Lines of text, each after indent; the first after whatever is already printed. */
static void print_lines(FILE *out, const char *text, int indent) {
  for (const char *p = text; *p;) {
    const char *nl = strchr(p, '\n');
    int len = nl ? (int)(nl - p) : (int)strlen(p);
    fprintf(out, "%.*s\n", len, p);
    p += len + (nl != NULL);
    if (*p) fprintf(out, "%*s", indent, "");
  }
}

void sl_opt_help(FILE *out, const sl_opt_spec *spec) {
  char left[128];
  for (const char *p = spec->synopsis; *p;) { /* one usage line per synopsis line */
    const char *nl = strchr(p, '\n');
    int len = nl ? (int)(nl - p) : (int)strlen(p);
    fprintf(out, "%s swimlane %s %.*s\n", p == spec->synopsis ? "usage:" : "      ", spec->cmd, len, p);
    p += len + (nl != NULL);
  }
  if (spec->about) {
    fputc('\n', out);
    print_lines(out, spec->about, 0);
  }
  fputs("\noptions:\n", out);
  for (const sl_opt *o = spec->opts; o->name; o++) {
    if (!o->help) continue;
    opt_left(o, left, sizeof left);
    int w = fprintf(out, "  %s", left);
    if (w > HELP_COL - 2) fprintf(out, "\n%*s", HELP_COL, "");
    else fprintf(out, "%*s", HELP_COL - w, "");
    print_lines(out, o->help, HELP_COL);
  }
  fprintf(out, "  %-*s%s\n", HELP_COL - 2, "-h, --help", "print this help");
  if (spec->more_help) {
    fputc('\n', out);
    spec->more_help(out);
  }
}

int sl_opt_value_follows(const sl_opt *opts, const char *a) {
  const sl_opt *o = NULL;
  if (a[0] != '-' || strchr(a, '=')) return 0;
  if (a[1] == '-') o = find_long(opts, a + 2, strlen(a + 2));
  else if (a[1] && !a[2]) o = find_short(opts, a[1]);
  return o && takes_value(o) && !(o->flags & SL_OPT_OPTIONAL_VALUE);
}

char **sl_opt_split_values(const sl_opt *opts, int argc, char **argv, int *out_argc) {
  size_t bytes = 0;
  for (int i = 0; i < argc; i++) bytes += strlen(argv[i]) + 1;
  char **v = sl_mem_alloc(sizeof(char *) * (2 * (size_t)argc + 1) + bytes);
  char *text = (char *)(v + 2 * argc + 1);
  int n = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i], *eq = strchr(a, '=');
    const sl_opt *o = NULL;
    if (i > 0 && a[0] == '-' && eq && a[1] == '-') o = find_long(opts, a + 2, (size_t)(eq - a - 2));
    else if (i > 0 && a[0] == '-' && eq == a + 2) o = find_short(opts, a[1]);
    size_t len = strlen(a) + 1;
    memcpy(text, a, len);
    v[n++] = text;
    if (o && takes_value(o)) { /* "--name" and "value" in place of "--name=value" */
      text[eq - a] = '\0';
      v[n++] = text + (eq - a) + 1;
    }
    text += len;
  }
  v[n] = NULL;
  *out_argc = n;
  return v;
}

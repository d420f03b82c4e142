/*
** check_cmd.c — `swimlane check-trace FILE [--format auto|json|proto]`.
**
** Prints "OK: N events, M slices, K flows, L tracks" and exits 0 when the trace
** follows the importer rules, else one line per problem (capped) and exit 1.
** Unreadable input (truncated, garbage) is an error: exit 1.
*/
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check_ctx.h"
#include "check_dir.h"
#include "sl_base.h"
#include "sl_filekind.h"
#include "sl_opt.h"

typedef struct check_args {
  const char *path, *format;
  int max_problems, strict;
} check_args;

static check_args g_args; /* what the table below fills */

static const sl_opt check_table[] = {
    {.name = "format", .kind = SL_OPT_CHOICE, .choices = "auto|json|proto", .arg = "F", .target = &g_args.format,
     .help = "auto (default: by extension, else by the first byte), json, proto"},
    {.name = "max-problems", .kind = SL_OPT_INT, .arg = "N", .lo = 0, .hi = INT_MAX, .target = &g_args.max_problems,
     .help = "problem lines printed before the rest are only counted (50)"},
    {.name = "strict", .kind = SL_OPT_FLAG, .target = &g_args.strict,
     .help = "fail on warnings too (fragile constructs Perfetto still imports)"},
    {.name = NULL},
};

static const sl_opt_spec check_spec = {
    .cmd = "check-trace",
    .synopsis = "FILE [options]\nDFX_DIR [options]",
    .about = "Validate a Chrome Trace Event JSON or Perfetto protobuf trace against the rules\n"
             "Perfetto's importers apply (required fields, nesting per lane, flow binding,\n"
             "sequence ids, interning). Exit 0 and an OK line when clean; one line per problem\n"
             "and exit 1 otherwise. DFX_DIR: every trace of an L3 run, then a tally.",
    .opts = check_table,
    .arg = &g_args.path,
};

static int has_suffix(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && strcmp(s + a - b, suf) == 0;
}

/* 'j' json, 'p' proto, 0 unknown: by name first, then by the first bytes. */
static char detect_format(const char *path, FILE *fp) {
  if (has_suffix(path, ".json")) return 'j';
  if (has_suffix(path, ".pftrace") || has_suffix(path, ".perfetto-trace") ||
      has_suffix(path, ".pb") || has_suffix(path, ".proto"))
    return 'p';
  /* A trace packet frame starts 0x0a (also '\n'), then a length byte; JSON
  ** starts with optional whitespace, then '{' or '['. */
  int b0 = getc(fp), b1 = getc(fp), c = b0;
  if (b0 == 0x0A && b1 != EOF && b1 != '{' && b1 != '[' && b1 != ' ' && b1 != '\n' && b1 != '\r' &&
      b1 != '\t') {
    rewind(fp);
    return 'p';
  }
  rewind(fp);
  while ((c = getc(fp)) == ' ' || c == '\n' || c == '\r' || c == '\t') {
  }
  rewind(fp);
  if (c == '{' || c == '[') return 'j';
  return 0;
}


int sl_cmd_check_trace(int argc, char **argv); /* declared for the CLI in tools/cli/commands.h */

int sl_cmd_check_trace(int argc, char **argv) {
  int dir_at;
  if (sl_check_dir_wanted(argc, argv, &dir_at)) return sl_check_cmd_dir(argc, argv, dir_at, sl_cmd_check_trace);
  g_args = (check_args){.format = "auto", .max_problems = 50};
  int prc = sl_opt_parse(&check_spec, argc, argv);
  if (prc != SL_OPT_GO) return prc;
  const char *path = g_args.path, *format = g_args.format;
  long long max_problems = g_args.max_problems;
  int strict = g_args.strict;
  if (!path) return sl_opt_usage_error("check-trace", "no FILE given");
  const char *wrong = sl_file_kind_hint(sl_file_kind_sniff(path), "check-trace");
  if (wrong) {
    sl_error(path, "%s", wrong);
    return 1;
  }
  FILE *fp = fopen(path, "rb");
  if (!fp) {
    sl_error(path, "cannot open: %s", strerror(errno));
    return 1;
  }
  char fmt = !strcmp(format, "json") ? 'j' : !strcmp(format, "proto") ? 'p' : 0;
  if (!fmt) fmt = detect_format(path, fp);
  if (!fmt) {
    sl_error(path, "neither a JSON trace ('{' or '[') nor a Perfetto protobuf trace (0x0a)");
    fclose(fp);
    return 1;
  }
  sl_check_ctx c = {
      .file = path, .out = stderr, .max_problems = (uint64_t)max_problems, .strict = strict};
  int rc = fmt == 'j' ? sl_check_json(&c, fp) : sl_check_proto(&c, fp);
  fclose(fp);
  if (rc != 0) return 1;
  if (c.warnings)
    sl_error(path, "%llu warning%s (fragile but imported; --strict fails on them)", (unsigned long long)c.warnings,
             c.warnings == 1 ? "" : "s");
  if (c.problems) {
    if (c.problems > c.max_problems)
      sl_error(path, "... and %llu more problems", (unsigned long long)(c.problems - c.max_problems));
    sl_error(path, "%llu problem%s", (unsigned long long)c.problems, c.problems == 1 ? "" : "s");
    return 1;
  }
  printf("OK: %llu events, %llu slices, %llu flows, %llu tracks\n", (unsigned long long)c.events,
         (unsigned long long)c.slices, (unsigned long long)c.flows, (unsigned long long)c.tracks);
  return 0;
}

/*
** check_cmd.c — `swimlane check-trace FILE [--format auto|json|proto]`.
**
** Prints "OK: N events, M slices, K flows, L tracks" and exits 0 when the trace
** follows the importer rules, else one line per problem (capped) and exit 1.
** Unreadable input (truncated, garbage) is an error: exit 1.
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_ctx.h"
#include "check_dir.h"
#include "sl_base.h"
#include "sl_filekind.h"

static void usage(FILE *out) {
  fputs(
      "usage: swimlane check-trace FILE [--format auto|json|proto] [--max-problems N]\n"
      "                            [--strict]\n"
      "\n"
      "Validate a Chrome Trace Event JSON or Perfetto protobuf trace against the rules\n"
      "Perfetto's importers apply (required fields, nesting per lane, flow binding,\n"
      "sequence ids, interning). Exit 0 and an OK line when clean; one line per problem\n"
      "and exit 1 otherwise.\n"
      "\n"
      "  --format F        auto (default: by extension, else by the first byte), json, proto\n"
      "  --max-problems N  problem lines printed before the rest are only counted (50)\n"
      "  --strict          fail on warnings too (fragile constructs Perfetto still imports)\n",
      out);
}

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


int sl_cmd_check_trace(int argc, char **argv) {
  int dir_at;
  if (sl_check_dir_wanted(argc, argv, &dir_at)) return sl_check_cmd_dir(argc, argv, dir_at, sl_cmd_check_trace);
  const char *path = NULL, *format = "auto";
  long long max_problems = 50;
  int strict = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "--format") && i + 1 < argc) {
      format = argv[++i];
    } else if (!strncmp(argv[i], "--format=", 9)) {
      format = argv[i] + 9;
    } else if (!strcmp(argv[i], "--strict")) {
      strict = 1;
    } else if (!strcmp(argv[i], "--max-problems") && i + 1 < argc) {
      char *end;
      max_problems = strtoll(argv[++i], &end, 10);
      if (*end || max_problems < 0) {
        sl_error(NULL, "check-trace: --max-problems needs a non-negative integer");
        return 2;
      }
    } else if (argv[i][0] == '-' && argv[i][1]) {
      sl_error(NULL, "check-trace: unknown option '%s'", argv[i]);
      usage(stderr);
      return 2;
    } else if (!path) {
      path = argv[i];
    } else {
      sl_error(NULL, "check-trace: one FILE only");
      return 2;
    }
  }
  if (!path) {
    usage(stderr);
    return 2;
  }
  if (strcmp(format, "auto") && strcmp(format, "json") && strcmp(format, "proto")) {
    sl_error(NULL, "check-trace: --format must be auto, json or proto");
    return 2;
  }
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
    fprintf(stderr, "swimlane: %s: %llu warning%s (fragile but imported; --strict fails on them)\n",
            path, (unsigned long long)c.warnings, c.warnings == 1 ? "" : "s");
  if (c.problems) {
    if (c.problems > c.max_problems)
      fprintf(stderr, "swimlane: %s: ... and %llu more problems\n", path,
              (unsigned long long)(c.problems - c.max_problems));
    fprintf(stderr, "swimlane: %s: %llu problem%s\n", path, (unsigned long long)c.problems,
            c.problems == 1 ? "" : "s");
    return 1;
  }
  printf("OK: %llu events, %llu slices, %llu flows, %llu tracks\n", (unsigned long long)c.events,
         (unsigned long long)c.slices, (unsigned long long)c.flows, (unsigned long long)c.tracks);
  return 0;
}

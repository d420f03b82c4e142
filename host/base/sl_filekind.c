/*
** sl_filekind.c — what kind of swimlane file is this? Sniffed from the first
** 16 KiB (the first JSON key and a few keys of the head; the name for binary
** files) so that a command given the wrong kind can say which command reads it.
*/
#include "sl_filekind.h"

#include <stdio.h>
#include <string.h>

#define HEAD 16384

static const char *skip_ws(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
  return p;
}

static int has(const char *head, const char *key) { return strstr(head, key) != NULL; }

static int ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && !strcmp(s + a - b, suffix);
}

/* Insight traces name their processes "core<N>.<unit>"; ours use numbers. */
static int string_core_pid(const char *head) {
  for (const char *p = strstr(head, "\"pid\""); p; p = strstr(p + 5, "\"pid\"")) {
    const char *q = skip_ws(p + 5, p + 64);
    if (*q != ':') continue;
    q = skip_ws(q + 1, q + 64);
    if (!strncmp(q, "\"core", 5)) return 1;
  }
  return 0;
}

static sl_file_kind sniff_json(const char *head, const char *end) {
  const char *p = skip_ws(head, end);
  if (p >= end || *p != '{') return SL_KIND_UNKNOWN;
  p = skip_ws(p + 1, end);
  if (!strncmp(p, "\"traceEvents\"", 13)) return string_core_pid(head) ? SL_KIND_INSIGHT : SL_KIND_TRACE;
  if (has(head, "\"chip_swimlane_level\"") || has(head, "\"aicore_tasks\"") || has(head, "\"aicpu_tasks\""))
    return SL_KIND_CAPTURE;
  if (has(head, "\"dump_args_level\"")) return SL_KIND_ARGS_DUMP;
  if (has(head, "\"kernel_ids\"") && !strncmp(p, "\"tasks\"", 7)) return SL_KIND_DEPS;
  if (has(head, "\"callable_id_to_name\"")) return SL_KIND_NAME_MAP;
  return SL_KIND_UNKNOWN;
}

sl_file_kind sl_file_kind_sniff(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return SL_KIND_UNKNOWN;
  static _Thread_local char head[HEAD + 1];
  size_t n = fread(head, 1, HEAD, f);
  fclose(f);
  head[n] = '\0';
  const char *p = skip_ws(head, head + n);
  if (p < head + n && *p == '{') return sniff_json(head, head + n);
  if (ends_with(path, ".pftrace")) return SL_KIND_TRACE;
  if (ends_with(path, "chip_swimlane_records.pb")) return SL_KIND_CAPTURE;
  return SL_KIND_UNKNOWN;
}

const char *sl_file_kind_hint(sl_file_kind k, const char *cmd) {
  int conv = !strcmp(cmd, "convert");
  switch (k) {
  case SL_KIND_TRACE:
    return conv ? "this is a Perfetto trace (what convert writes), not a capture: open it in "
                  "https://ui.perfetto.dev, or validate it with 'swimlane check-trace'"
                : NULL;
  case SL_KIND_INSIGHT:
    return conv ? "this is an Insight trace (swimlane l0's per-instruction trace), not a chip "
                  "capture: swimlane l0 writes its Perfetto form (*_trace_perfetto.json) beside it"
                : NULL;
  case SL_KIND_CAPTURE:
    return conv ? NULL
                : "this is a chip swimlane capture, not a trace: convert it first "
                  "('swimlane convert FILE'), then check the merged_swimlane.json it writes";
  case SL_KIND_DEPS:
    return conv ? "this is a dep_gen deps.json, not a capture: pass it as --deps-json beside "
                  "chip_swimlane_records.json (a sibling deps.json is picked up on its own)"
                : "this is a dep_gen deps.json, not a trace: 'swimlane convert' reads it with a capture";
  case SL_KIND_NAME_MAP:
    return conv ? "this is a function name map, not a capture: pass it as --func-names beside "
                  "chip_swimlane_records.json"
                : "this is a function name map, not a trace: 'swimlane convert --func-names' reads it";
  case SL_KIND_ARGS_DUMP:
    return "this is an args dump (--dump-args), not a capture or a trace: 'swimlane l0' replays a "
           "task from it";
  default:
    return NULL;
  }
}

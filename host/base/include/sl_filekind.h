/*
** sl_filekind.h — recognize swimlane's file kinds (capture, trace, Insight trace,
** deps.json, name map, args dump) from a file's head, so that a command given the
** wrong kind names it and says what to run instead.
*/
#ifndef SL_FILEKIND_H
#define SL_FILEKIND_H

typedef enum sl_file_kind {
  SL_KIND_UNKNOWN = 0, /* unreadable, or nothing recognizable: let the reader decide */
  SL_KIND_CAPTURE,     /* chip_swimlane_records.json / .pb */
  SL_KIND_TRACE,       /* Chrome-JSON or Perfetto protobuf trace */
  SL_KIND_INSIGHT,     /* Insight per-instruction trace (swimlane l0) */
  SL_KIND_DEPS,        /* dep_gen deps.json */
  SL_KIND_NAME_MAP,    /* name_map_<case>.json */
  SL_KIND_ARGS_DUMP,   /* args_dump.json */
} sl_file_kind;

sl_file_kind sl_file_kind_sniff(const char *path);
/* For command cmd ("convert", "check-trace"): the message when a file of kind k
** is the wrong input, or NULL when the command reads that kind. */
const char *sl_file_kind_hint(sl_file_kind k, const char *cmd);

#endif

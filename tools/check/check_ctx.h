/*
** check_ctx.h — shared state of one `swimlane check-trace` run: the problem
** reporter (one line per problem or warning, capped), the totals printed on
** success, and the two checkers. Containers, hashes and sorting come from host/base
** (sl_intern, sl_map, sl_vec, sl_hash).
*/
#ifndef SL_CHECK_CTX_H
#define SL_CHECK_CTX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sl_intern.h"
#include "sl_map.h"
#include "sl_hash.h"
#include "sl_vec.h"

typedef struct sl_check_ctx {
  const char *file;      /* as given on the command line, for messages         */
  FILE *out;             /* problem lines (stderr in the CLI)                  */
  uint64_t max_problems; /* lines printed before "... and N more"              */
  uint64_t problems;     /* total found                                        */
  uint64_t warnings;     /* fragile but imported: printed, do not fail         */
  int strict;            /* --strict: warnings count as problems               */
  /* totals for the OK line */
  uint64_t events, slices, flows, tracks;
} sl_check_ctx;

/* Where a problem is: an event (trace-file order, from 0) and what is known
** about it. For protobuf traces `event` is the packet index. */
typedef struct sl_check_loc {
  uint64_t event;
  int has_pid, has_tid, has_ts;
  int64_t pid, tid;
  int64_t ts_ns;
  const char *unit; /* "event" (JSON) or "packet" (protobuf)             */
} sl_check_loc;

/* Report one problem: "swimlane: FILE: event #i (pid P tid T ts X): what". */
void sl_check_problem(sl_check_ctx *c, const sl_check_loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A construct Perfetto imports, but not necessarily as meant (e.g. a flow end
** on a slice boundary): "swimlane: FILE: warning: event #i (...): what". With
** c->strict it is a problem instead. */
void sl_check_warning(sl_check_ctx *c, const sl_check_loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Print "ts" as microseconds with 3 decimals, exactly (no doubles). */
void sl_check_fmt_ts(char *buf, size_t n, int64_t ts_ns);

/* The checkers: 0 = trace read to the end (problems counted in c->problems),
** -1 = unreadable (truncated, garbage: already reported as an error). */
int sl_check_json(sl_check_ctx *c, FILE *fp);
int sl_check_proto(sl_check_ctx *c, FILE *fp);

#endif /* SL_CHECK_CTX_H */

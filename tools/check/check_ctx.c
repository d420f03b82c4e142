/*
** check_ctx.c — problem reporting and small containers for check-trace.
*/
#include "check_ctx.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void sl_check_fmt_ts(char *buf, size_t n, int64_t ts_ns) {
  uint64_t mag = ts_ns < 0 ? (uint64_t)0 - (uint64_t)ts_ns : (uint64_t)ts_ns;
  snprintf(buf, n, "%s%" PRIu64 ".%03" PRIu64, ts_ns < 0 ? "-" : "", mag / 1000, mag % 1000);
}

static void report(sl_check_ctx *c, int warning, const sl_check_loc *loc, const char *fmt,
                   va_list ap) {
  uint64_t n = warning ? ++c->warnings : ++c->problems;
  if (n > c->max_problems) return;
  fprintf(c->out, "swimlane: %s: %s", c->file, warning ? "warning: " : "");
  if (loc) {
    fprintf(c->out, "%s #%" PRIu64, loc->unit ? loc->unit : "event", loc->event);
    char pid[24] = "?", tid[24] = "?", ts[32] = "-";
    if (loc->has_pid) snprintf(pid, sizeof pid, "%" PRId64, loc->pid);
    if (loc->has_tid) snprintf(tid, sizeof tid, "%" PRId64, loc->tid);
    if (loc->has_ts) sl_check_fmt_ts(ts, sizeof ts, loc->ts_ns);
    fprintf(c->out, " (pid %s tid %s ts %s): ", pid, tid, ts);
  }
  vfprintf(c->out, fmt, ap);
  fputc('\n', c->out);
}

void sl_check_problem(sl_check_ctx *c, const sl_check_loc *loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(c, 0, loc, fmt, ap);
  va_end(ap);
}

void sl_check_warning(sl_check_ctx *c, const sl_check_loc *loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(c, !c->strict, loc, fmt, ap);
  va_end(ap);
}

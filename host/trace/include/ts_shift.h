/*
** ts_shift.h — a trace sink that moves every timestamp by a constant and
** forwards everything to an inner sink: the time origin of the default convert
** output (docs/convert.md, "Time origin").
*/
#ifndef SL_TS_SHIFT_H
#define SL_TS_SHIFT_H

#include "sl_trace_sink.h"

/* Where the default output's earliest record sits (µs). Chrome DevTools reads
** ts 0 as "no timestamp" and leaves such events out of the trace's bounds, so
** the first slice would start before the visible window. */
#define SL_CONVERT_ORIGIN_US 1.0

/* Wrap `inner` (borrowed: finish is forwarded, destroy frees only the
** wrapper). Never NULL. */
sl_trace_sink *sl_ts_shift_new(sl_trace_sink *inner, double by_us);

/* end - ts when ts + (end - ts) == end in double arithmetic, else the largest duration
** with ts + dur <= end: a slice drawn [ts, ts + dur] then ends where its
** neighbour starting at `end` begins, never an ulp past it, which Chrome DevTools
** (adding the two) would read as an overlap and drop the slice. */
double sl_ts_fit_dur(double ts, double end);

#endif /* SL_TS_SHIFT_H */

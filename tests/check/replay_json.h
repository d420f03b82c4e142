/*
** replay_json.h — test helper: feed a (small) Chrome-JSON trace, event by event,
** into any sl_trace_sink, so the protobuf backend can be exercised on real
** converter output before the conversion engine drives it.
*/
#ifndef SL_TEST_REPLAY_JSON_H
#define SL_TEST_REPLAY_JSON_H

#include "sl_trace_sink.h"

/* 0 ok, -1 unreadable (message on stderr). Events are replayed in file order. */
int sl_test_replay_json(const char *path, sl_trace_sink *sink);

#endif

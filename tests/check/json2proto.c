/*
** json2proto.c — test tool: replay a Chrome-JSON trace into the protobuf sink.
**   json2proto IN.json OUT.pftrace
*/
#include <stdio.h>

#include "replay_json.h"
#include "sl_base.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: json2proto IN.json OUT.pftrace\n");
    return 2;
  }
  sl_outfile of;
  if (sl_outfile_open(&of, argv[2]) != 0) return 1;
  sl_trace_sink *sink = sl_trace_sink_proto_new(of.fp);
  int rc = sl_test_replay_json(argv[1], sink);
  if (rc == 0) rc = sl_sink_finish(sink);
  sl_sink_destroy(sink);
  if (rc != 0) {
    sl_outfile_abort(&of);
    return 1;
  }
  return sl_outfile_commit(&of) == 0 ? 0 : 1;
}

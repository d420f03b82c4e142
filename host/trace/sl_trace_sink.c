/*
** sl_trace_sink.c — what every sink shares: the command's last step, which finishes
** the sink and reports what the format could not hold.
*/
#include "sl_trace_sink.h"

#include <inttypes.h>

#include "sl_base.h"

int sl_sink_end(sl_trace_sink *s, const char *path) {
  int rc = sl_sink_finish(s);
  if (s->dropped)
    sl_warn(path, "%" PRIu64 " events with a negative timestamp are not in the protobuf trace (Perfetto drops them)",
            s->dropped);
  return rc;
}

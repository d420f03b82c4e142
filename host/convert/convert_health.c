/*
** convert_health.c — what a capture lost, as the reader found it in
** metadata.capture (capture->health, JSON and .pb alike): the one health line
** convert prints for every capture, and the "records dropped" counter the trace
** carries when something was lost, so the loss is visible where the data is.
*/
#include <stdio.h>

#include "sl_convert.h"

void sl_convert_print_health(FILE *out, const char *input, const sl_capture *c, int quiet) {
  const sl_capture_health *h = &c->health;
  if (!h->present || !h->n_pools) {
    fprintf(out, "swimlane: %s: capture health unknown (no metadata.capture loss accounting: "
                 "not a capture written by swimlane run)\n", input);
    return;
  }
  uint64_t lost = sl_capture_dropped(c);
  if (quiet && !h->truncated && !lost) return;
  fprintf(out, "swimlane: %s: capture %s:", input,
          h->truncated ? "TRUNCATED (interrupted)" : lost ? "complete with drops" : "complete");
  for (size_t i = 0; i < h->n_pools; i++) {
    const sl_pool_health *p = &h->pools[i];
    const char *name = sl_str_get(c, p->name);
    if (p->dropped)
      fprintf(out, "%s%s %llu dropped of %llu", i ? ", " : " ", name, (unsigned long long)p->dropped,
              (unsigned long long)p->total);
    else
      fprintf(out, "%s%s %llu of %llu", i ? ", " : " ", name, (unsigned long long)p->collected,
              (unsigned long long)p->total);
  }
  fputc('\n', out);
}

void sl_convert_emit_loss(sl_trace_sink *s, const sl_capture *c, int64_t pid) {
  const sl_capture_health *h = &c->health;
  if (!h->present || (!h->truncated && !sl_capture_dropped(c))) return; /* nothing lost: no track */
  sl_arg args[SL_HEALTH_MAX_POOLS + 1];
  size_t n = 0;
  for (size_t i = 0; i < h->n_pools; i++) args[n++] = SL_ARG_U(sl_str_get(c, h->pools[i].name), h->pools[i].dropped);
  args[n++] = SL_ARG_I("truncated", h->truncated);
  /* at the capture's start: the counter then reads the same over the whole trace */
  sl_counter ev = {.pid = pid, .tid = 0, .ts = 0, .name = "records dropped", .cat = "capture", .args = args,
                   .nargs = n};
  sl_sink_counter(s, &ev);
}

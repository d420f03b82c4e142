/*
** flow_place.h — put each flow end where both viewers bind it to the same slice.
**
** Perfetto's JSON importer binds an 's' (and an 'f' with "bp":"e") to the innermost
** slice open at its ts on its (pid, tid); Chrome DevTools binds a flow event only
** to a slice with exactly its ts, pid, tid and cat, and pairs 's' with 'f' by
** (cat, name, id). The placer is a sink in front of the real one: it forwards
** everything and remembers every slice; sl_flow_place_pair() then moves each end
** of a flow to the START of the slice Perfetto binds it to (when that start still
** binds to the same slice), makes a bind_id name that slice, and when both slices
** share a category gives the flow that category. Perfetto draws an arrow from its source slice's end to its sink
** slice's start whatever the flow event's ts, so its picture does not change.
*/
#ifndef SL_FLOW_PLACE_H
#define SL_FLOW_PLACE_H

#include "sl_trace_sink.h"

typedef struct sl_flow_place sl_flow_place;

/* A placer forwarding to inner (not owned). Never NULL. */
sl_flow_place *sl_flow_place_new(sl_trace_sink *inner);
/* The placer as a sink (emit slices / flows / metadata through it). */
sl_trace_sink *sl_flow_place_sink(sl_flow_place *fp);
/* Adjust one flow's two ends in place (ts, cat; strings stay valid while the
** placer lives). Returns 1 if both ends now bind in DevTools too. */
int sl_flow_place_pair(sl_flow_place *fp, sl_flow *s, sl_flow *f);
/* Flows placed so that DevTools binds both ends / total pairs seen. */
void sl_flow_place_counts(const sl_flow_place *fp, uint64_t *devtools, uint64_t *total);
void sl_flow_place_free(sl_flow_place *fp);

#endif

/*
** sl_tdesc.h — the one place that knows the field names of the generated
** 128-byte tensor descriptor (sl_tensor_desc; docs/l0.md). The runtime and the
** kernel API go through these macros so a schema rename touches one file.
*/
#ifndef SL_TDESC_H
#define SL_TDESC_H

#include "sl_records.h"

#define SL_TD_ADDR(t) ((t)->addr)
#define SL_TD_SIZE(t) ((t)->size)
#define SL_TD_OWNER(t) ((t)->owner_task_id)
#define SL_TD_START(t) ((t)->start_offset)
#define SL_TD_VERSION(t) ((t)->version)
#define SL_TD_NDIMS(t) ((t)->ndims)
#define SL_TD_DTYPE(t) ((t)->dtype)
#define SL_TD_CONTIG(t) ((t)->is_contiguous)
#define SL_TD_SHAPE(t, i) ((t)->shapes[i])
#define SL_TD_STRIDE(t, i) ((t)->strides[i])
#define SL_TD_MAX_DIMS 5

#endif /* SL_TDESC_H */

/*
** sl_pftrace.h — framing of Perfetto protobuf trace files.
**
** A trace is the message perfetto.protos.Trace, whose only field is
** `repeated TracePacket packet = 1`. Because repeated length-delimited fields
** concatenate, a file is a run of frames: byte 0x0A, varint length, packed
** TracePacket. Writing one frame at a time keeps memory bounded; reading one
** frame at a time lets the checker stream traces of any size.
*/
#ifndef SL_PFTRACE_H
#define SL_PFTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sl_perfetto_trace.pb-c.h"

/* Sequence flags of TracePacket.sequence_flags. */
#define SL_PF_SEQ_CLEARED 1u     /* SEQ_INCREMENTAL_STATE_CLEARED */
#define SL_PF_SEQ_NEEDS_STATE 2u /* SEQ_NEEDS_INCREMENTAL_STATE   */

/* ---- writing ------------------------------------------------------------------ */

typedef struct sl_pf_writer {
  FILE *fp;     /* borrowed                                   */
  uint8_t *buf; /* reused packing buffer                      */
  size_t cap;
  uint64_t packets; /* frames written                             */
  uint64_t bytes;   /* bytes written                              */
  int failed;       /* sticky: allocation or I/O error            */
} sl_pf_writer;

void sl_pf_writer_init(sl_pf_writer *w, FILE *fp);
/* Append one packet frame. 0 ok, -1 (sticky) on failure. */
int sl_pf_write_packet(sl_pf_writer *w, const Perfetto__Protos__TracePacket *p);
void sl_pf_writer_free(sl_pf_writer *w);

/* ---- reading ------------------------------------------------------------------ */

typedef struct sl_pf_reader {
  FILE *fp; /* borrowed                                   */
  uint8_t *buf;
  size_t cap;
  uint64_t offset; /* file offset of the next frame              */
  uint64_t index;  /* number of frames returned so far           */
  char err[160];   /* what went wrong, when a read returns -1    */
} sl_pf_reader;

void sl_pf_reader_init(sl_pf_reader *r, FILE *fp);
/* Next frame's payload (valid until the next call): 1 got one, 0 clean end of
** file, -1 broken framing or I/O error (r->err says what, with the offset). */
int sl_pf_read_frame(sl_pf_reader *r, const uint8_t **data, size_t *len);
void sl_pf_reader_free(sl_pf_reader *r);

#endif /* SL_PFTRACE_H */

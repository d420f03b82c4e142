/*
** sl_pftrace.c — frame writer and reader for Perfetto protobuf trace files.
*/
#include "sl_pftrace.h"

#include <stdlib.h>

#include "sl_mem.h"
#include "sl_vec.h"
#include <string.h>

/* Frames larger than this are taken as garbage rather than allocated. */
#define SL_PF_MAX_FRAME (256u * 1024u * 1024u)

/* Room for need bytes; the buffer is reused frame after frame, so it only grows. */
static void reserve(uint8_t **buf, size_t *cap, size_t need) {
  if (need > *cap) *buf = sl_array_grow(*buf, cap, need, 1);
}

void sl_pf_writer_init(sl_pf_writer *w, FILE *fp) {
  memset(w, 0, sizeof *w);
  w->fp = fp;
}

int sl_pf_write_packet(sl_pf_writer *w, const Perfetto__Protos__TracePacket *p) {
  if (w->failed) return -1;
  size_t len = protobuf_c_message_get_packed_size(&p->base);
  reserve(&w->buf, &w->cap, len + 11);
  /* Header: field 1, wire type 2, then the length as a varint. */
  size_t h = 0;
  w->buf[h++] = 0x0A;
  for (uint64_t v = len;; v >>= 7) {
    if (v < 0x80) {
      w->buf[h++] = (uint8_t)v;
      break;
    }
    w->buf[h++] = (uint8_t)(v | 0x80);
  }
  protobuf_c_message_pack(&p->base, w->buf + h);
  if (fwrite(w->buf, 1, h + len, w->fp) != h + len) {
    w->failed = 1;
    return -1;
  }
  w->packets++;
  w->bytes += h + len;
  return 0;
}

void sl_pf_writer_free(sl_pf_writer *w) {
  sl_mem_free(w->buf);
  w->buf = NULL;
  w->cap = 0;
}

void sl_pf_reader_init(sl_pf_reader *r, FILE *fp) {
  memset(r, 0, sizeof *r);
  r->fp = fp;
}

int sl_pf_read_frame(sl_pf_reader *r, const uint8_t **data, size_t *len) {
  uint64_t start = r->offset;
  int c = getc(r->fp);
  if (c == EOF) {
    if (ferror(r->fp)) {
      snprintf(r->err, sizeof r->err, "read error at offset %llu", (unsigned long long)start);
      return -1;
    }
    return 0;
  }
  r->offset++;
  if (c != 0x0A) {
    snprintf(r->err, sizeof r->err,
             "offset %llu: expected a TracePacket field (byte 0x0a), found 0x%02x: "
             "not a Perfetto protobuf trace, or corrupt",
             (unsigned long long)start, c);
    return -1;
  }
  uint64_t n = 0;
  for (int shift = 0;; shift += 7) {
    c = getc(r->fp);
    if (c == EOF) {
      snprintf(r->err, sizeof r->err, "offset %llu: truncated in a packet length",
               (unsigned long long)start);
      return -1;
    }
    r->offset++;
    if (shift > 63) {
      snprintf(r->err, sizeof r->err, "offset %llu: packet length varint too long",
               (unsigned long long)start);
      return -1;
    }
    n |= (uint64_t)(c & 0x7f) << shift;
    if (!(c & 0x80)) break;
  }
  if (n > SL_PF_MAX_FRAME) {
    snprintf(r->err, sizeof r->err, "offset %llu: packet length %llu is implausible",
             (unsigned long long)start, (unsigned long long)n);
    return -1;
  }
  reserve(&r->buf, &r->cap, (size_t)n + 1);
  size_t got = fread(r->buf, 1, (size_t)n, r->fp);
  r->offset += got;
  if (got != n) {
    snprintf(r->err, sizeof r->err,
             "offset %llu: truncated: packet #%llu declares %llu bytes, only %zu present",
             (unsigned long long)start, (unsigned long long)r->index, (unsigned long long)n, got);
    return -1;
  }
  r->index++;
  *data = r->buf;
  *len = (size_t)n;
  return 1;
}

void sl_pf_reader_free(sl_pf_reader *r) {
  sl_mem_free(r->buf);
  r->buf = NULL;
  r->cap = 0;
}

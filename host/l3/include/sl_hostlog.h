/*
** sl_hostlog.h — host.<pid>.log: the host-clock call tree of one process of an L3
** run (the L3 scheduler's node.* spans, a rank's chip.run tree and its clk=dev
** device phases), written by `swimlane run --ranks` and read by the L3 merge.
**
** Text, one record a line:
**   swimlane-hostlog 1 pid=<pid> role=<l3_scheduler|chip> host_clock_domain_id=<id>
**   span inv=<n> name=<name> clk=<host|dev> start_ns=<i64> dur_ns=<i64> [key=<i64>]...
** clk=host spans start at CLOCK_MONOTONIC ns of this host; clk=dev spans start at
** device ns relative to the opening of the invocation's device window
** (chip.run.device_wall, itself clk=dev at 0). inv numbers one process's invocations.
*/
#ifndef SL_HOSTLOG_H
#define SL_HOSTLOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SL_HL_MAX_ATTRS 8

typedef struct sl_hl_span {
  int inv;
  char name[48];
  int clk_dev;                 /* 1: clk=dev (relative device ns) */
  int64_t start_ns, dur_ns;
  int nattrs;
  char keys[SL_HL_MAX_ATTRS][24];
  int64_t vals[SL_HL_MAX_ATTRS];
} sl_hl_span;

typedef struct sl_hostlog {
  char *path;
  long pid;
  char role[24];
  char domain[128];            /* host_clock_domain_id */
  size_t n;
  sl_hl_span *spans;
} sl_hostlog;

/* Read a log; NULL with "swimlane: <path>: <what>" reported. */
sl_hostlog *sl_hostlog_load(const char *path);
void sl_hostlog_free(sl_hostlog *h);
/* The span of invocation inv named name, or NULL. */
const sl_hl_span *sl_hostlog_find(const sl_hostlog *h, int inv, const char *name);
/* Attribute value; 1 found, 0 absent. */
int sl_hl_attr(const sl_hl_span *s, const char *key, int64_t *out);

/* ---- writing -------------------------------------------------------------------- */

/* Open <dir>/host.<pid>.log and write its header; NULL on error (reported). */
FILE *sl_hostlog_create(const char *dir, long pid, const char *role, const char *domain);
/* One span line (attrs: nattrs key/value pairs), flushed. */
void sl_hostlog_span(FILE *f, const sl_hl_span *s);

/* This process's host clock in ns: CLOCK_MONOTONIC, or the simulated host clock
** set by sl_hl_set_host_clock (a rank placed on another simulated host). */
int64_t sl_hl_now_ns(void);
/* CLOCK_MONOTONIC ns: the simulator's true clock. */
int64_t sl_hl_true_ns(void);
/* Simulate another host: host = true + offset + (true - epoch) * drift_ppb / 1e9.
** Every process of one simulated host passes the same three values. */
void sl_hl_set_host_clock(int64_t offset_ns, int64_t drift_ppb, int64_t epoch_true_ns);
int64_t sl_hl_host_of_true(int64_t true_ns);
/* This machine's host clock domain: "linux-boot-id:<boot_id>". */
void sl_hl_domain_id(char *out, size_t len);

#endif

/*
** sl_l3_worker.c — one rank of an L3 run: a simulated chip in its own process with
** its own device counter (offset + rate error). For each dispatch it runs the
** ordinary `swimlane run` round into rankR/dN, samples the clock anchors around the
** device run, and logs the chip.run call tree into host.<pid>.log.
*/
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sl_base.h"
#include "sl_collector.h"
#include "sl_hostlog.h"
#include "sl_l3_run.h"
#include "sl_platforms.h"
#include "sl_run_internal.h"
#include "sl_runtime.h"
#include "sl_mem.h"

/* One clock anchor sample: host ns before and after one device counter read. */
typedef struct anchor {
  int64_t before, after;
  uint64_t cycles;
  int64_t true_mid;      /* the simulator's true clock at the sample (sim_truth.json) */
  int64_t true_half;     /* ... known to within this */
} anchor;

/* What the device-window hook saw during the current dispatch. */
static struct {
  uint64_t freq;
  anchor open, close;   /* pre_host_orchestration / post_device_execution */
  uint64_t sched_start, sched_end;
  int64_t runner_start;  /* host ns: the platform runner begins (workload already loaded) */
  int opened, closed;
  char domain[128];
  int host;              /* simulated host index, -1 = not simulating hosts */
  int64_t host_offset, host_ppb, host_epoch;
} g_win;

static anchor sample(void) {
  anchor a;
  int64_t t0 = sl_hl_true_ns();
  a.before = sl_hl_host_of_true(t0);
  a.cycles = sl_rt_cycles(g_win.freq);
  int64_t t1 = sl_hl_true_ns();
  a.after = sl_hl_host_of_true(t1);
  a.true_mid = t0 + (t1 - t0) / 2;
  a.true_half = (t1 - t0 + 1) / 2;
  return a;
}

/* The capture's L3 metadata (host clock domain, clock anchors, device window), which
** the collector writes into both the JSON and the .pb capture. */
static void add_capture_metadata(sl_collector *coll) {
  sl_dispatch_clock d;
  memset(&d, 0, sizeof d);
  snprintf(d.domain, sizeof d.domain, "%s", g_win.domain);
  d.pre = (sl_clock_anchor){g_win.open.before, g_win.open.after, g_win.open.cycles};
  d.post = (sl_clock_anchor){g_win.close.before, g_win.close.after, g_win.close.cycles};
  d.open_cycles = g_win.open.cycles;
  d.sched_start_cycles = g_win.sched_start;
  d.sched_end_cycles = g_win.sched_end;
  d.close_cycles = g_win.close.cycles;
  sl_collector_set_dispatch_clock(coll, &d);
}

/* sl_run_device_hook: the device window of the round being run. Anchors are only
** sampled for a capture (coll != NULL); an L3 run with --enable-dep-gen alone
** pays no anchor cost. */
static void device_hook(int ev, sl_collector *coll) {
  if (ev == SL_RUN_DEV_OPEN) {
    g_win.runner_start = sl_hl_now_ns();
    g_win.open = coll ? sample() : (anchor){0, 0, sl_rt_cycles(g_win.freq), 0, 0};
    g_win.opened = 1;
  } else if (ev == SL_RUN_DEV_SCHED) {
    g_win.sched_start = sl_rt_cycles(g_win.freq);
  } else {
    g_win.sched_end = sl_rt_cycles(g_win.freq);
    g_win.close = coll ? sample() : (anchor){0, 0, g_win.sched_end, 0, 0};
    g_win.closed = 1;
    if (coll) add_capture_metadata(coll);
  }
}

typedef struct dispatch_cmd {
  int d;
  int64_t run_id, task_slot, group_index, group_size, sent_ns;
} dispatch_cmd;

typedef struct worker {
  int rank;
  const char *root;
  char rank_dir[4096];
  int argc;              /* the round's argv: the user's run options */
  char **argv;
  FILE *log;
  long pid;
  const sl_run_entry *entry; /* run itself and its device hook (sl_cmd_run's) */
} worker;

static int64_t dev_ns(uint64_t cycles) { return (int64_t)((unsigned __int128)cycles * 1000000000u / g_win.freq); }

static void set_span(sl_hl_span *s, int inv, const char *name, int dev, int64_t start, int64_t dur) {
  memset(s, 0, sizeof *s);
  s->inv = inv;
  snprintf(s->name, sizeof s->name, "%s", name);
  s->clk_dev = dev;
  s->start_ns = start;
  s->dur_ns = dur;
}

static void attr(sl_hl_span *s, const char *k, int64_t v) {
  snprintf(s->keys[s->nattrs], sizeof s->keys[0], "%s", k);
  s->vals[s->nattrs++] = v;
}

/* The chip.run tree of one dispatch: root, runner_run, the device window and its phases. */
static void log_tree(worker *w, const dispatch_cmd *c, int64_t t0, int64_t r0, int64_t r1, int64_t t1) {
  sl_hl_span s;
  set_span(&s, c->d, "chip.run", 0, t0, t1 - t0);
  attr(&s, "dispatch_id", c->d + 1);
  attr(&s, "run_id", c->run_id);
  attr(&s, "task_slot", c->task_slot);
  attr(&s, "group_index", c->group_index);
  attr(&s, "group_size", c->group_size);
  attr(&s, "chip_rank", w->rank);
  sl_hostlog_span(w->log, &s);
  set_span(&s, c->d, "chip.run.runner_run", 0, r0, r1 - r0);
  sl_hostlog_span(w->log, &s);
  if (!g_win.opened || !g_win.closed) return;
  uint64_t o = g_win.open.cycles;
  set_span(&s, c->d, "chip.run.device_wall", 1, 0, dev_ns(g_win.close.cycles - o));
  sl_hostlog_span(w->log, &s);
  set_span(&s, c->d, "chip.run.device_wall.init", 1, 0, dev_ns(g_win.sched_start - o));
  sl_hostlog_span(w->log, &s);
  set_span(&s, c->d, "chip.run.device_wall.sched", 1, dev_ns(g_win.sched_start - o),
           dev_ns(g_win.sched_end - g_win.sched_start));
  sl_hostlog_span(w->log, &s);
}

/* <dir>/<name>, all or nothing, from a printf format. */
static int write_sidecar(const char *dir, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int write_sidecar(const char *dir, const char *name, const char *fmt, ...) {
  char *p = sl_path_join(dir, name);
  sl_outfile of;
  if (sl_outfile_open(&of, p)) {
    sl_mem_free(p);
    return -1;
  }
  va_list ap;
  va_start(ap, fmt);
  vfprintf(of.fp, fmt, ap);
  va_end(ap);
  int rc = sl_outfile_commit(&of);
  sl_mem_free(p);
  return rc;
}

static int write_identity(worker *w, const char *dir, const dispatch_cmd *c, int64_t recv_ns, int64_t r0,
                          int64_t r1) {
  return write_sidecar(
      dir, "dispatch_identity.json",
      "{\n  \"schema_version\": 1,\n  \"run_id\": %" PRId64 ",\n  \"task_slot\": %" PRId64
      ",\n  \"group_index\": %" PRId64 ",\n  \"group_size\": %" PRId64
      ",\n  \"chip_rank\": %d,\n  \"local_capture_index\": %d,\n  \"endpoint_dispatch_id\": %d,\n"
      "  \"pipeline_slot\": 0,\n  \"pipeline_generation\": %d,\n  \"endpoint_pid\": %ld,\n"
      "  \"dispatch\": {\"sent_ns\": %" PRId64 ", \"received_ns\": %" PRId64 ", \"queue_wait_ns\": %" PRId64
      ", \"runner_start_ns\": %" PRId64 ", \"runner_end_ns\": %" PRId64 "}\n}\n",
      c->run_id, c->task_slot, c->group_index, c->group_size, w->rank, c->d, c->d + 1, c->d, w->pid, c->sent_ns,
      recv_ns, recv_ns - c->sent_ns, r0, r1);
}

/* With simulated hosts: the true clocks behind this capture, for tests to check the
** cross-host merge against (sim_truth.json; the merge never reads it). */
static int write_truth(const char *dir) {
  if (g_win.host < 0 || !g_win.opened || !g_win.closed) return 0;
  return write_sidecar(dir, "sim_truth.json",
                       "{\"host_index\": %d, \"host_offset_ns\": %" PRId64 ", \"host_drift_ppb\": %" PRId64
                       ", \"host_epoch_true_ns\": %" PRId64 ", \"device_open_cycles\": %" PRIu64
                       ", \"device_open_true_ns\": %" PRId64 ", \"device_open_true_uncertainty_ns\": %" PRId64
                       ", \"device_close_cycles\": %" PRIu64 ", \"device_close_true_ns\": %" PRId64
                       ", \"device_close_true_uncertainty_ns\": %" PRId64 "}\n",
                       g_win.host, g_win.host_offset, g_win.host_ppb, g_win.host_epoch, g_win.open.cycles,
                       g_win.open.true_mid, g_win.open.true_half, g_win.close.cycles, g_win.close.true_mid,
                       g_win.close.true_half);
}

/* The one directory `run` created below tmp, moved to rankR/dN: 1 moved, 0 when
** the round wrote nothing (no diagnostic on), -1 error (reported). */
static int move_round_dir(const char *tmp, const char *dst) {
  DIR *d = opendir(tmp);
  if (!d) return sl_error(tmp, "cannot read: %s", strerror(errno)), -1;
  struct dirent *e;
  char *src = NULL;
  while ((e = readdir(d)) != NULL && !src)
    if (e->d_name[0] != '.') src = sl_path_join(tmp, e->d_name);
  closedir(d);
  int rc = src ? 1 : 0;
  if (src && rename(src, dst)) rc = -1, sl_error(dst, "cannot move the rank's capture here: %s", strerror(errno));
  sl_mem_free(src);
  rmdir(tmp);
  return rc;
}

static int run_dispatch(worker *w, const dispatch_cmd *c) {
  int64_t t0 = sl_hl_now_ns();
  char tmp[4200], dst[4200];
  snprintf(tmp, sizeof tmp, "%s/.d%d.tmp", w->rank_dir, c->d);
  snprintf(dst, sizeof dst, "%s/d%d", w->rank_dir, c->d);
  if (sl_mkdirs(tmp)) return 1;
  w->argv[w->argc - 1] = tmp;  /* the "-o" value reserved by worker_init */
  memset(&g_win.open, 0, sizeof g_win.open);
  g_win.opened = g_win.closed = 0;
  *w->entry->device_hook = device_hook;
  int64_t r0 = sl_hl_now_ns();
  int rc = w->entry->run(w->argc, w->argv);
  int64_t r1 = sl_hl_now_ns();
  *w->entry->device_hook = NULL;
  /* runner_run: from the runner's start (chip and collector built, workload loaded)
  ** to its return after collector teardown, export and the result check */
  if (g_win.opened) r0 = g_win.runner_start;
  int moved = rc == 0 ? move_round_dir(tmp, dst) : 0;
  if (moved < 0) rc = 1;
  if (moved > 0 && (write_identity(w, dst, c, t0, r0, r1) || write_truth(dst))) rc = 1;
  log_tree(w, c, t0, r0, r1, sl_hl_now_ns());
  return rc;
}

/* --l3-host H ...: this rank sits on simulated host H (0 = the scheduler's host). */
static void set_host_model(const sl_l3_request *req) {
  g_win.host = -1;
  if (!req->host) return;
  g_win.host = atoi(req->host);
  g_win.host_offset = req->host_offset ? strtoll(req->host_offset, NULL, 10) : 0;
  g_win.host_ppb = req->host_ppb ? strtoll(req->host_ppb, NULL, 10) : 0;
  g_win.host_epoch = req->host_epoch ? strtoll(req->host_epoch, NULL, 10) : 0;
  if (g_win.host == 0) return;
  sl_hl_set_host_clock(g_win.host_offset, g_win.host_ppb, g_win.host_epoch);
  sl_rt_set_host_clock(sl_hl_now_ns); /* host_build_graph's host records and anchors too */
  char real[sizeof g_win.domain];
  snprintf(real, sizeof real, "%s", g_win.domain);
  snprintf(g_win.domain, sizeof g_win.domain, "sim-host-%d:%.100s", g_win.host, real);
}

/* Worker setup from the request: rank, root, device counter model, the round's argv. */
static int worker_init(worker *w, const sl_l3_request *req) {
  if (!req->worker_rank || !req->worker_root || !req->counter_offset || !req->rate_ppb) {
    sl_error(NULL, "run: the L3 rank worker needs --l3-worker, --l3-root, --l3-counter-offset, --l3-rate-ppb");
    return 2;
  }
  const char *plat_s = req->platform ? req->platform : sl_platform_default_sim();
  const struct sl_platform_info *plat = sl_platform_by_name(plat_s);
  if (!plat) return sl_error(NULL, "run: unknown platform '%s'", plat_s), 2;
  w->root = req->worker_root;
  w->rank = atoi(req->worker_rank);
  w->pid = (long)getpid();
  g_win.freq = plat->clock_freq_hz;
  sl_hl_domain_id(g_win.domain, sizeof g_win.domain);
  set_host_model(req);
  sl_rt_set_device_clock(strtoll(req->counter_offset, NULL, 10), strtoll(req->rate_ppb, NULL, 10), g_win.freq);
  snprintf(w->rank_dir, sizeof w->rank_dir, "%s/rank%d", w->root, w->rank);
  static const char *const drop[] = {"--l3-worker", "--l3-root", "--l3-counter-offset", "--l3-rate-ppb",
                                     "--l3-host", "--l3-host-offset", "--l3-host-drift-ppb", "--l3-host-epoch",
                                     "-o", NULL};
  w->argv = sl_l3_argv_without(req->argc, req->argv, drop, 4, &w->argc);
  w->argv[w->argc++] = (char *)"-q";
  w->argv[w->argc++] = (char *)"--no-convert"; /* the ranks are merged by `convert DFX_DIR` */
  w->argv[w->argc++] = (char *)"-o";
  w->argv[w->argc++] = NULL; /* set per dispatch */
  w->argv[w->argc] = NULL;
  w->log = sl_hostlog_create(w->root, w->pid, "chip", g_win.domain);
  return w->log ? 0 : 1;
}

int sl_l3_worker_main(const sl_l3_request *req, const sl_run_entry *entry) {
  int64_t started = sl_hl_now_ns();
  worker w;
  memset(&w, 0, sizeof w);
  w.entry = entry;
  int rc = worker_init(&w, req);
  FILE *cmd = rc ? NULL : fdopen(SL_L3_CMD_FD, "r");
  FILE *reply = rc ? NULL : fdopen(SL_L3_REPLY_FD, "w");
  if (!rc && (!cmd || !reply)) rc = 1, sl_error(NULL, "run: rank %d: no command pipe (not started by run --ranks)", w.rank);
  /* ready: the scheduler sends no dispatch before this, so a node.task's start is not
  ** this process's start-up (the cross-host merge bounds the clock offset by the
  ** spare width of those windows) */
  if (!rc) { /* rank.ready: this process's set-up, before the first dispatch can arrive */
    sl_hl_span s;
    set_span(&s, 0, "rank.ready", 0, started, sl_hl_now_ns() - started);
    sl_hostlog_span(w.log, &s);
  }
  if (!rc && (fputs("ready\n", reply) < 0 || fflush(reply))) rc = 1;
  char line[256];
  while (!rc && fgets(line, sizeof line, cmd)) {
    dispatch_cmd c;
    if (!strncmp(line, "quit", 4)) break;
    if (sscanf(line, "dispatch %d %" SCNd64 " %" SCNd64 " %" SCNd64 " %" SCNd64 " %" SCNd64, &c.d, &c.run_id,
               &c.task_slot, &c.group_index, &c.group_size, &c.sent_ns) != 6) {
      sl_error(NULL, "run: rank %d: bad command from the L3 scheduler: %s", w.rank, line);
      rc = 1;
      break;
    }
    int drc = run_dispatch(&w, &c);
    fprintf(reply, "done %d %d\n", c.d, drc);
    fflush(reply);
  }
  if (cmd) fclose(cmd);
  if (reply) fclose(reply);
  if (w.log) fclose(w.log);
  sl_mem_free(w.argv);
  return rc;
}

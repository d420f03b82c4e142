/*
** sl_l3_sched.c — the L3 scheduler of `swimlane run WORKLOAD --ranks N`: creates
** the case directory, starts one rank worker process per chip, dispatches each
** round to them (even rounds as one submit group sharing run_id:task_slot, odd
** rounds as individually submitted per-rank tasks), and logs its node.* spans.
** When the ranks captured, it merges them as the single-chip `run` converts its
** capture (`convert DFX_DIR`, l3_swimlane.json; --no-convert skips it).
*/
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "sl_base.h"
#include "sl_hostlog.h"
#include "sl_platforms.h"
#include "sl_l3_dirs.h"
#include "sl_l3_run.h"
#include "sl_platforms.h"
#include "sl_run_internal.h"
#include "sl_mem.h"
#include "sl_opt.h"

#define SL_L3_MAX_RANKS SL_WORKLOAD_MAX_RANKS

typedef struct rank_proc {
  pid_t pid;
  FILE *cmd;     /* scheduler -> worker */
  int reply_fd;  /* worker -> scheduler */
  int64_t sent_ns, done_ns;
  int64_t task_slot;
  int rc;
} rank_proc;

typedef struct l3_opts {
  int ranks, dispatches, hosts;
  int no_convert, quiet;  /* --no-convert, -q: as for a single-chip run */
  long ppm, host_ppm;
  int64_t epoch;  /* true ns every simulated host clock is anchored at */
  const char *out_root, *workload, *case_name, *platform;
} l3_opts;

/* The scheduler's options from the request, with the defaults of an L3 run. */
static int l3_opts_from(const sl_l3_request *req, l3_opts *o) {
  *o = (l3_opts){.ranks = req->ranks, .dispatches = req->dispatches ? req->dispatches : 2,
                 .hosts = req->hosts, .ppm = req->rate_error_ppm >= 0 ? req->rate_error_ppm : 20,
                 .host_ppm = req->host_drift_ppm >= 0 ? req->host_drift_ppm : 50,
                 .no_convert = req->no_convert, .quiet = req->quiet,
                 .out_root = req->out_root ? req->out_root : "outputs", .workload = req->workload,
                 .case_name = req->case_name,
                 .platform = req->platform ? req->platform : sl_platform_default_sim()};
  return 0;
}

/* <root>/<Class>_<Case>_<stamp>[_n]: the case root every rank and host log sits in. */
static char *case_root(const l3_opts *o) {
  sl_workload wl;
  char kase[128] = "Case";
  int ok = sl_workload_load(&wl, o->workload) == 0;
  const char *cn = o->case_name && strstr(o->case_name, "::") ? strstr(o->case_name, "::") + 2 : o->case_name;
  ok = ok && sl_workload_case(&wl, cn, o->platform, kase, sizeof kase);
  char stamp[32], name[512];
  snprintf(name, sizeof name, "%s", ok ? wl.klass : "");
  sl_workload_free(&wl);
  if (!ok) return NULL;
  time_t now = time(NULL);
  struct tm tm;
  localtime_r(&now, &tm);
  strftime(stamp, sizeof stamp, "%Y%m%d_%H%M%S", &tm);
  if (sl_mkdirs(o->out_root)) return NULL;
  for (int n = 1; n < 1000; n++) {
    char rel[700];
    snprintf(rel, sizeof rel, n == 1 ? "%s_%s_%s" : "%s_%s_%s_%d", name, kase, stamp, n);
    char *dir = sl_path_join(o->out_root, rel);
    if (mkdir(dir, 0777) == 0) return dir;
    if (errno != EEXIST) sl_error(dir, "cannot create the L3 case directory: %s", strerror(errno));
    sl_mem_free(dir);
    if (errno != EEXIST) return NULL;
  }
  return NULL;
}

/* Start rank r: this binary again, as a rank worker with its own device counter. */
static int spawn_rank(rank_proc *p, int r, const sl_l3_request *req, const char *root, const l3_opts *o) {
  int cmd[2], rep[2];
  if (pipe(cmd) || pipe(rep)) return sl_error(NULL, "run: pipe: %s", strerror(errno)), -1;
  static const char *const drop[] = {"--ranks", "--dispatches", "--rate-error-ppm", "--hosts", "--host-drift-ppm",
                                     "-o", "--output", NULL};
  int n;
  char **args = sl_l3_argv_without(req->argc, req->argv, drop, 18, &n);
  char rs[16], off[32], ppb[32];
  snprintf(rs, sizeof rs, "%d", r);
  /* counters some minutes apart; rate errors up to --rate-error-ppm, alternating in sign */
  snprintf(off, sizeof off, "%lld", (long long)(r + 1) * 7919000000LL);
  snprintf(ppb, sizeof ppb, "%ld", (r % 2 ? -1 : 1) * o->ppm * 1000 * (r + 1) / o->ranks);
  const char *extra[] = {"--l3-worker", rs, "--l3-root", root, "--l3-counter-offset", off, "--l3-rate-ppb", ppb};
  for (int i = 0; i < 8; i++) args[n++] = (char *)extra[i];
  /* --hosts H: rank r on simulated host r % H; host h > 0 has its own clock, offset
  ** by seconds and drifting by --host-drift-ppm (alternating in sign) */
  char hs[16], hoff[32], hppb[32], hep[32];
  if (o->hosts > 0) {
    int h = r % o->hosts;
    snprintf(hs, sizeof hs, "%d", h);
    snprintf(hoff, sizeof hoff, "%lld", (long long)h * 2500123457LL);
    snprintf(hppb, sizeof hppb, "%ld", (h % 2 ? 1 : -1) * o->host_ppm * 1000);
    snprintf(hep, sizeof hep, "%lld", (long long)o->epoch);
    const char *hx[] = {"--l3-host", hs, "--l3-host-offset", hoff, "--l3-host-drift-ppb", hppb, "--l3-host-epoch", hep};
    for (int i = 0; i < 8; i++) args[n++] = (char *)hx[i];
  }
  args[n] = NULL;
  char **full = sl_mem_calloc((size_t)n + 2, sizeof *full);
  full[0] = (char *)"swimlane";
  memcpy(full + 1, args, (size_t)n * sizeof *full); /* args[0] is "run" */
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int c = fcntl(cmd[0], F_DUPFD, 10), w = fcntl(rep[1], F_DUPFD, 10);
    dup2(c, SL_L3_CMD_FD);
    dup2(w, SL_L3_REPLY_FD);
    for (int fd = 5; fd < 64; fd++) close(fd);
    execv("/proc/self/exe", full);
    _exit(127);
  }
  sl_mem_free(full);
  sl_mem_free(args);
  close(cmd[0]);
  close(rep[1]);
  if (pid < 0) return close(cmd[1]), close(rep[0]), sl_error(NULL, "run: fork: %s", strerror(errno)), -1;
  p->pid = pid;
  p->cmd = fdopen(cmd[1], "w");
  p->reply_fd = rep[0];
  return p->cmd ? 0 : -1;
}

/* Wait for every rank's "ready" (its process started and set up): 0, or -1 reported. */
static int wait_ready(rank_proc *p, int n) {
  for (int r = 0; r < n; r++) {
    char line[16];
    size_t k = 0;
    while (k + 1 < sizeof line) { /* one byte at a time: nothing past the newline is taken */
      ssize_t got = read(p[r].reply_fd, line + k, 1);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0 || line[k++] == '\n') break;
    }
    line[k] = 0;
    if (strcmp(line, "ready\n"))
      return sl_error(NULL, "run: rank %d (pid %ld) exited before it was ready (see its messages above)", r,
                      (long)p[r].pid), -1;
  }
  return 0;
}

/* Wait for every rank's reply, noting when each arrived. 0 ok, -1 a rank died. */
static int collect_replies(rank_proc *p, int n, int d) {
  struct pollfd fds[SL_L3_MAX_RANKS];
  int left = n;
  for (int r = 0; r < n; r++) fds[r] = (struct pollfd){p[r].reply_fd, POLLIN, 0};
  while (left > 0) {
    if (poll(fds, (nfds_t)n, -1) < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    for (int r = 0; r < n; r++) {
      if (fds[r].fd < 0 || !fds[r].revents) continue;
      char buf[64];
      ssize_t k = read(p[r].reply_fd, buf, sizeof buf - 1);
      int got_d = -1, rc = 1;
      if (k > 0) buf[k] = 0, sscanf(buf, "done %d %d", &got_d, &rc);
      p[r].done_ns = sl_hl_now_ns();
      p[r].rc = got_d == d ? rc : 1;
      if (k <= 0) sl_error(NULL, "run: rank %d (pid %ld) exited during dispatch d%d", r, (long)p[r].pid, d);
      fds[r].fd = -1;
      left--;
    }
  }
  return 0;
}

static void node_span(FILE *log, int inv, const char *name, int64_t t0, int64_t t1, const char *k1, int64_t v1,
                      const char *k2, int64_t v2) {
  sl_hl_span s;
  memset(&s, 0, sizeof s);
  s.inv = inv;
  snprintf(s.name, sizeof s.name, "%s", name);
  s.start_ns = t0;
  s.dur_ns = t1 - t0;
  snprintf(s.keys[0], sizeof s.keys[0], "%s", k1);
  s.vals[0] = v1;
  snprintf(s.keys[1], sizeof s.keys[1], "%s", k2);
  s.vals[1] = v2;
  s.nattrs = 2;
  sl_hostlog_span(log, &s);
}

/* Round d: a submit group on even rounds, individual tasks on odd ones. */
static int dispatch_round(rank_proc *p, int n, int d, int64_t run_id, int64_t *slot, FILE *log) {
  int group = d % 2 == 0;
  int64_t gslot = (*slot)++, t0 = sl_hl_now_ns();
  for (int r = 0; r < n; r++) {
    p[r].task_slot = group ? gslot : (*slot)++;
    p[r].sent_ns = sl_hl_now_ns();
    fprintf(p[r].cmd, "dispatch %d %lld %lld %d %d %lld\n", d, (long long)run_id, (long long)p[r].task_slot,
            group ? r : 0, group ? n : 1, (long long)p[r].sent_ns);
    fflush(p[r].cmd);
  }
  int rc = collect_replies(p, n, d);
  int64_t t1 = sl_hl_now_ns();
  node_span(log, d, group ? "node.submit_group" : "node.dispatch", t0, t1, "run_id", run_id, "group_size",
            group ? n : 1);
  for (int r = 0; r < n; r++) {
    node_span(log, d, "node.task", p[r].sent_ns, p[r].done_ns, "task_slot", p[r].task_slot, "chip_rank", r);
    if (p[r].rc) rc = -1;
  }
  return rc;
}

static int stop_ranks(rank_proc *p, int n) {
  int rc = 0;
  for (int r = 0; r < n; r++) {
    if (p[r].cmd) fputs("quit\n", p[r].cmd), fclose(p[r].cmd);
    if (p[r].reply_fd > 0) close(p[r].reply_fd);
    int st = 0;
    if (p[r].pid > 0 && (waitpid(p[r].pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))) rc = -1;
  }
  return rc;
}

/* The ranks' captures onto one timeline, as `swimlane convert ROOT` would (dispatch
** d0 into ROOT/l3_swimlane.json); only when the ranks captured. 0 ok, 1 failed. */
static int merge_ranks(const l3_opts *o, const char *root, int (*convert)(int, char **)) {
  char *d0 = sl_path_join(root, "rank0/d0");
  char *rec = sl_l3_records_path(d0, NULL);
  sl_mem_free(d0);
  if (!rec) return 0; /* no chip swimlane: nothing to merge */
  sl_mem_free(rec);
  if (o->no_convert || !convert) {
    if (!o->quiet) printf("swimlane: merge them with: swimlane convert %s\n", root);
    return 0;
  }
  /* ranks on simulated hosts of their own are merged through the dispatch windows */
  char *argv[5] = {(char *)"convert", (char *)root};
  int argc = 2;
  if (o->hosts > 1) argv[argc++] = (char *)"--cross-host";
  if (o->quiet) argv[argc++] = (char *)"-q";
  fflush(stdout);
  int rc = convert(argc, argv);
  if (rc == 0 && o->dispatches > 1 && !o->quiet)
    printf("swimlane: merged dispatch d0; the others: swimlane convert %s --dispatch dN -o OUT.json\n", root);
  return rc == 0 ? 0 : 1;
}

int sl_l3_sched_main(const sl_l3_request *req, int (*convert)(int argc, char **argv)) {
  l3_opts o;
  int prc = l3_opts_from(req, &o);
  if (prc) return prc;
  o.epoch = sl_hl_true_ns();
  char *root = case_root(&o);
  if (!root) return 1;
  char domain[128];
  sl_hl_domain_id(domain, sizeof domain);
  FILE *log = sl_hostlog_create(root, (long)getpid(), "l3_scheduler", domain);
  rank_proc procs[SL_L3_MAX_RANKS];
  memset(procs, 0, sizeof procs);
  signal(SIGPIPE, SIG_IGN);
  int rc = log ? 0 : 1, started = 0;
  for (; rc == 0 && started < o.ranks; started++)
    if (spawn_rank(&procs[started], started, req, root, &o)) rc = 1;
  if (rc == 0 && wait_ready(procs, o.ranks)) rc = 1;
  int64_t run_id = (int64_t)getpid(), slot = 0, t0 = sl_hl_now_ns();
  for (int d = 0; rc == 0 && d < o.dispatches; d++)
    if (dispatch_round(procs, o.ranks, d, run_id, &slot, log)) {
      sl_error(root, "run: dispatch d%d failed on at least one rank (see the messages above)", d);
      rc = 1;
    }
  if (stop_ranks(procs, started) && rc == 0) rc = 1;
  if (log) {
    node_span(log, 0, "node.run", t0, sl_hl_now_ns(), "run_id", run_id, "ranks", o.ranks);
    fclose(log);
  }
  if (rc == 0 && !o.quiet) printf("swimlane: L3 run: %d ranks x %d dispatches, outputs in %s\n", o.ranks, o.dispatches, root);
  if (rc == 0) rc = merge_ranks(&o, root, convert);
  sl_mem_free(root);
  return rc;
}

/*
** test_l3.c — multi-rank runs and the L3 merge, end to end: `swimlane run
** --ranks 2` once, then `swimlane convert DFX_DIR` on copies of its output, intact
** (the layout, the merged trace's lanes, namespaces, containment and slack) and
** broken in each way the merge must refuse (message naming rank and file, exit 1,
** no l3_swimlane.json). The run merges its ranks itself (--no-convert skips it);
** the .pb rank captures merge to the same trace as the JSON ones, and --format
** proto holds the JSON trace's content (checked with test_sink_proto, argv[2]);
** host_build_graph ranks are placed through their clock anchors (test_hbg_ranks).
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sl_test_file.h"
#include "sl_test_keep.h"

static const char *g_swimlane;
static const char *g_cmp_proto; /* test_sink_proto: JSON trace vs .pftrace content (optional) */
static char g_root[256];  /* mkdtemp: the run's -o */
static char g_dfx[512];   /* the run's case directory (rankN/ and host logs) */
static char g_work[600];  /* per-test copy of g_dfx */

/* Run a shell command line; its output (stdout+stderr) in *out when out != NULL. */
static int sh(char **out, const char *fmt, ...) {
  char cmd[8192];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cmd, sizeof cmd, fmt, ap);
  va_end(ap);
  strncat(cmd, " 2>&1", sizeof cmd - strlen(cmd) - 1);
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  size_t cap = 1 << 16, len = 0, n;
  char *buf = malloc(cap);
  while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0)
    if (cap - (len += n) < 4096) buf = realloc(buf, cap *= 2);
  buf[len] = 0;
  int st = pclose(p);
  if (out) *out = buf;
  else free(buf);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static cJSON *load_json(const char *path) {
  char *s = sl_test_read_file(path, NULL);
  cJSON *j = s ? cJSON_Parse(s) : NULL;
  free(s);
  return j;
}

static int exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

static int setup_run(void **state) {
  (void)state;
  snprintf(g_root, sizeof g_root, "/tmp/sl_l3_XXXXXX");
  if (!mkdtemp(g_root)) return -1;
  char *out = NULL;
  int rc = sh(&out, "'%s' run mixed_example --ranks 2 --dispatches 2 --enable-chip-swimlane 4 --enable-dep-gen "
              "-o '%s'", g_swimlane, g_root);
  if (rc) fprintf(stderr, "run --ranks failed:\n%s", out);
  free(out);
  DIR *d = opendir(g_root);
  struct dirent *e;
  while (d && (e = readdir(d)))
    if (e->d_name[0] != '.') snprintf(g_dfx, sizeof g_dfx, "%s/%s", g_root, e->d_name);
  if (d) closedir(d);
  return rc || !g_dfx[0] ? -1 : 0;
}

static int teardown_run(void **state) {
  (void)state;
  sl_test_keep_traces(g_root, "test_l3"); /* for check_devtools_engine */
  return sh(NULL, "rm -rf '%s'", g_root) ? -1 : 0;
}

/* A fresh copy of the run's output for one test to change. */
static int copy_dfx(void **state) {
  (void)state;
  snprintf(g_work, sizeof g_work, "%s/work", g_root);
  return sh(NULL, "rm -rf '%s' && cp -r '%s' '%s'", g_work, g_dfx, g_work) ? -1 : 0;
}

/* Convert the copy; the trace (NULL on failure) and the output in *out. */
static cJSON *convert(char **out, const char *extra) {
  char path[700];
  snprintf(path, sizeof path, "%s/l3_swimlane.json", g_work);
  int rc = sh(out, "'%s' convert '%s' %s", g_swimlane, g_work, extra);
  return rc == 0 ? load_json(path) : NULL;
}

/* The merge refuses: exit 1, the message names what, and no trace is left. */
static void expect_refusal(const char *extra, const char *what, const char *file) {
  char *out = NULL, path[700];
  snprintf(path, sizeof path, "%s/l3_swimlane.json", g_work);
  unlink(path); /* an earlier successful merge in the same test */
  int rc = sh(&out, "'%s' convert '%s' %s", g_swimlane, g_work, extra);
  if (rc != 1 || !strstr(out, what) || (file && !strstr(out, file))) fprintf(stderr, "got rc %d:\n%s", rc, out);
  assert_int_equal(rc, 1);
  assert_non_null(strstr(out, what));
  if (file) assert_non_null(strstr(out, file));
  assert_false(exists(path));
  free(out);
}

static const char *pname(const cJSON *ev) {
  const cJSON *a = cJSON_GetObjectItem(ev, "args"), *n = cJSON_GetObjectItem(a, "name");
  return cJSON_IsString(n) ? n->valuestring : "";
}

static int64_t jint(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItem(o, k);
  assert_true(cJSON_IsNumber(v));
  return (int64_t)v->valuedouble;
}

static void test_layout(void **state) {
  (void)state;
  char p[800];
  for (int r = 0; r < 2; r++)
    for (int d = 0; d < 2; d++) {
      static const char *const files[] = {"chip_swimlane_records.json", "deps.json", "name_map_Case1.json",
                                          "dispatch_identity.json"};
      for (int f = 0; f < 4; f++) {
        snprintf(p, sizeof p, "%s/rank%d/d%d/%s", g_dfx, r, d, files[f]);
        assert_true(exists(p));
      }
    }
  cJSON *id[2][2];
  for (int r = 0; r < 2; r++)
    for (int d = 0; d < 2; d++) {
      snprintf(p, sizeof p, "%s/rank%d/d%d/dispatch_identity.json", g_dfx, r, d);
      id[r][d] = load_json(p);
      assert_non_null(id[r][d]);
      assert_int_equal(jint(id[r][d], "chip_rank"), r);
      assert_int_equal(jint(id[r][d], "local_capture_index"), d);
      assert_non_null(cJSON_GetObjectItem(id[r][d], "dispatch"));
    }
  /* d0 is one submit group: shared run_id:task_slot, distinct group_index */
  assert_int_equal(jint(id[0][0], "task_slot"), jint(id[1][0], "task_slot"));
  assert_int_equal(jint(id[0][0], "group_size"), 2);
  assert_int_not_equal(jint(id[0][0], "group_index"), jint(id[1][0], "group_index"));
  /* d1 is individually submitted: its own slot per rank */
  assert_int_not_equal(jint(id[0][1], "task_slot"), jint(id[1][1], "task_slot"));
  assert_int_equal(jint(id[0][1], "group_size"), 1);
  for (int r = 0; r < 2; r++)
    for (int d = 0; d < 2; d++) cJSON_Delete(id[r][d]);
  /* the capture carries the clock anchors and the host clock domain; each rank's device
  ** counter has its own offset ((rank + 1) x 7919e6 cycles: the two ranks' counters,
  ** read within seconds of each other, differ by about 7919e6) */
  double open_cycles[2], open_host[2];
  for (int r = 0; r < 2; r++) {
    snprintf(p, sizeof p, "%s/rank%d/d0/chip_swimlane_records.json", g_dfx, r);
    cJSON *rec = load_json(p), *meta = cJSON_GetObjectItem(rec, "metadata");
    assert_true(cJSON_IsString(cJSON_GetObjectItem(meta, "host_clock_domain_id")));
    cJSON *samples = cJSON_GetObjectItem(cJSON_GetObjectItem(meta, "clock_anchors"), "samples");
    assert_int_equal(cJSON_GetArraySize(samples), 2);
    cJSON *pre = cJSON_GetArrayItem(samples, 0);
    open_cycles[r] = (double)jint(pre, "device_cycles");
    open_host[r] = (double)jint(pre, "host_before_ns");
    cJSON_Delete(rec);
  }
  double freq = 50e6; /* a2a3sim */
  double apart = open_cycles[1] - open_cycles[0] - (open_host[1] - open_host[0]) * freq / 1e9;
  assert_true(fabs(apart - 7919e6) < 1e6); /* within 20 ms of counter time */
  /* three host logs: the scheduler's node.* spans and each rank's chip.run tree */
  char *out = NULL;
  assert_int_equal(sh(&out, "cat '%s'/host.*.log", g_dfx), 0);
  assert_non_null(strstr(out, "role=l3_scheduler"));
  assert_non_null(strstr(out, "name=node.submit_group"));
  assert_non_null(strstr(out, "name=node.dispatch"));
  assert_non_null(strstr(out, "name=chip.run.runner_run clk=host"));
  assert_non_null(strstr(out, "name=chip.run.device_wall.sched clk=dev"));
  free(out);
  /* no dispatch is sent before its rank is ready (rank.ready ends before its first node.task starts) */
  assert_int_equal(sh(&out, "python3 - '%s' <<'PY'\n"
                            "import glob, re, sys\n"
                            "spans = {}\n"
                            "for f in glob.glob(sys.argv[1] + '/host.*.log'):\n"
                            "    for line in open(f):\n"
                            "        kv = dict(re.findall(r'(\\w+)=(\\S+)', line))\n"
                            "        if line.startswith('span'): spans.setdefault(kv['name'], []).append((f, kv))\n"
                            "ready = {f: int(kv['start_ns']) + int(kv['dur_ns']) for f, kv in spans.get('rank.ready', [])}\n"
                            "rank_log = {kv['chip_rank']: f for f, kv in spans['chip.run']}\n"
                            "first = {}\n"
                            "for f, kv in spans['node.task']:\n"
                            "    first[kv['chip_rank']] = min(first.get(kv['chip_rank'], 1 << 62), int(kv['start_ns']))\n"
                            "ok = [r for r, t in first.items() if rank_log[r] in ready and ready[rank_log[r]] <= t]\n"
                            "print(len(ok), len(first))\n"
                            "PY\n", g_dfx), 0); /* sh() appends its redirection after the terminator's line */
  assert_string_equal(out, "2 2\n");
  free(out);
}

static void check_rank_slices(cJSON *trace, cJSON *ranks);

/* The two traces hold the same events (the metadata names each capture read). */
static void assert_same_events(const cJSON *a, const cJSON *b) {
  const cJSON *ea = cJSON_GetObjectItem(a, "traceEvents"), *eb = cJSON_GetObjectItem(b, "traceEvents");
  assert_true(cJSON_GetArraySize(ea) > 100);
  assert_int_equal(cJSON_GetArraySize(ea), cJSON_GetArraySize(eb));
  assert_true(cJSON_Compare(ea, eb, 1));
}

/* `run --ranks` merged its ranks itself: l3_swimlane.json beside them, the same
** trace a later `convert DFX_DIR` writes. */
static void test_auto_merge(void **state) {
  (void)state;
  char p[700], *out = NULL;
  snprintf(p, sizeof p, "%s/l3_swimlane.json", g_dfx);
  cJSON *auto_t = load_json(p);
  assert_non_null(auto_t);
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(auto_t, "metadata"), "ranks")), 2);
  assert_int_equal(sh(NULL, "rm '%s/l3_swimlane.json'", g_work), 0);
  cJSON *t = convert(&out, "");
  assert_non_null(t);
  free(out);
  assert_same_events(auto_t, t);
  cJSON_Delete(t);
  cJSON_Delete(auto_t);
  /* --no-convert leaves the merge to the user, as for a single-chip run */
  char dir[600];
  snprintf(dir, sizeof dir, "%s/noconv", g_root);
  assert_int_equal(sh(&out, "'%s' run mixed_example --ranks 2 --dispatches 1 --enable-chip-swimlane 2 --no-convert "
                            "-o '%s'", g_swimlane, dir), 0);
  assert_non_null(strstr(out, "merge them with: swimlane convert "));
  free(out);
  assert_int_equal(sh(&out, "ls -d '%s'/*/rank1/d0 && ls '%s'/*/l3_swimlane.json", dir, dir), 2);
  free(out);
  /* --clock-anchors: the runtime's own anchors are the capture's one clock_anchors */
  snprintf(dir, sizeof dir, "%s/anchors", g_root);
  assert_int_equal(sh(&out, "'%s' run mixed_example --ranks 2 --dispatches 1 --enable-chip-swimlane 2 --clock-anchors "
                            "-q -o '%s'", g_swimlane, dir), 0);
  free(out);
  assert_int_equal(sh(&out, "grep -c '\"clock_anchors\"' '%s'/*/rank1/d0/chip_swimlane_records.json && "
                            "ls '%s'/*/l3_swimlane.json", dir, dir), 0);
  assert_int_equal(strtol(out, NULL, 10), 1);
  free(out);
}

/* A 4-rank run, merged by the run itself: every rank's views, host lanes and
** dispatcher lane, each rank's slices inside its window with its slack. */
static void test_four_ranks(void **state) {
  (void)state;
  char dir[600], p[800], *out = NULL;
  snprintf(dir, sizeof dir, "%s/four", g_root);
  int rc = sh(&out, "'%s' run mixed_example --ranks 4 --dispatches 1 --enable-chip-swimlane 3 -o '%s'", g_swimlane, dir);
  if (rc) fprintf(stderr, "%s", out);
  assert_int_equal(rc, 0);
  assert_non_null(strstr(out, "L3 merge complete: 4 ranks"));
  free(out);
  assert_int_equal(sh(&out, "ls '%s'/*/l3_swimlane.json", dir), 0);
  out[strcspn(out, "\n")] = 0;
  snprintf(p, sizeof p, "%s", out);
  free(out);
  cJSON *t = load_json(p);
  assert_non_null(t);
  int views[4] = {0}, hosts = 0, bounds = 0, tasks = 0;
  cJSON *ev;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(t, "traceEvents")) {
    const char *n = cJSON_GetObjectItem(ev, "name")->valuestring, *pn = pname(ev);
    int64_t pid = jint(ev, "pid");
    if (!strcmp(n, "process_name") && pid >= 100 && pid < 500 && !strncmp(pn, "rank", 4) &&
        pn[4] - '0' == pid / 100 - 1)
      views[pid / 100 - 1]++;
    if (!strcmp(n, "process_name")) hosts += pid < 100 && strstr(pn, " / Host (pid ") != NULL;
    if (!strcmp(n, "thread_name")) bounds += pid < 100 && !strcmp(pn, "Placement Bound");
    if (!strcmp(n, "thread_name")) tasks += pid < 100 && !strncmp(pn, "node.task rank", 14);
  }
  for (int r = 0; r < 4; r++) assert_true(views[r] >= 2);
  assert_int_equal(hosts, 4);
  assert_int_equal(bounds, 4);
  assert_int_equal(tasks, 4);
  cJSON *ranks = cJSON_GetObjectItem(cJSON_GetObjectItem(t, "metadata"), "ranks");
  assert_int_equal(cJSON_GetArraySize(ranks), 4);
  check_rank_slices(t, ranks);
  cJSON_Delete(t);
}

/* Rank captures read from their .pb: the same trace as from the JSON. */
static void test_pb_ranks(void **state) {
  (void)state;
  char *out = NULL, p[700];
  cJSON *from_json = convert(&out, "--records json");
  assert_non_null(from_json);
  free(out);
  assert_int_equal(sh(NULL, "rm '%s'/rank*/d*/chip_swimlane_records.json", g_work), 0);
  cJSON *from_pb = convert(&out, ""); /* no JSON left: the .pb is read */
  if (!from_pb) fprintf(stderr, "%s", out);
  assert_non_null(from_pb);
  free(out);
  assert_same_events(from_json, from_pb);
  cJSON *rk = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(from_pb, "metadata"), "ranks"), 1);
  assert_non_null(strstr(cJSON_GetObjectItem(rk, "capture")->valuestring, "rank1/d0/chip_swimlane_records.pb"));
  assert_true(jint(rk, "slack_ns") > 0);
  cJSON_Delete(from_json);
  cJSON_Delete(from_pb);
  /* the per-rank tools read it too */
  assert_int_equal(sh(&out, "'%s' sched-overhead '%s'", g_swimlane, g_work), 0);
  assert_non_null(strstr(out, "rank1/d0/chip_swimlane_records.pb"));
  free(out);
  expect_refusal("--records json", "no chip_swimlane_records.json", "rank0/d0");
  assert_int_equal(sh(&out, "'%s' convert '%s' --records xml", g_swimlane, g_work), 2); /* usage */
  assert_non_null(strstr(out, "swimlane convert: --records expects 'json' or 'pb', got 'xml'"));
  free(out);
  /* a truncated .pb: named, nothing written */
  snprintf(p, sizeof p, "%s/rank1/d0/chip_swimlane_records.pb", g_work);
  struct stat st;
  assert_int_equal(stat(p, &st), 0);
  assert_int_equal(truncate(p, st.st_size / 2), 0);
  expect_refusal("", "", "rank1/d0/chip_swimlane_records.pb");
  assert_int_equal(truncate(p, 40), 0); /* not even the metadata */
  expect_refusal("", "no readable Metadata message", "rank1/d0/chip_swimlane_records.pb");
}

/* --format proto: l3_swimlane.pftrace, well formed, with the JSON trace's content. */
static void test_proto_output(void **state) {
  (void)state;
  char *out = NULL, pf[700], js[700];
  snprintf(pf, sizeof pf, "%s/l3_swimlane.pftrace", g_work);
  snprintf(js, sizeof js, "%s/l3_swimlane.json", g_work);
  cJSON_Delete(convert(NULL, ""));
  assert_true(exists(js));
  assert_int_equal(sh(&out, "'%s' convert '%s' --format proto --records pb", g_swimlane, g_work), 0);
  free(out);
  assert_true(exists(pf));
  assert_int_equal(sh(&out, "'%s' check-trace '%s'", g_swimlane, pf), 0);
  assert_non_null(strstr(out, "OK: "));
  free(out);
  if (g_cmp_proto) {
    int rc = sh(&out, "'%s' '%s' '%s'", g_cmp_proto, js, pf);
    if (rc) fprintf(stderr, "%s", out);
    assert_int_equal(rc, 0);
    free(out);
  }
}

/* Every rank slice lies inside its runner_run window and carries the rank's slack. */
static void check_rank_slices(cJSON *trace, cJSON *ranks) {
  int n = cJSON_GetArraySize(ranks), seen[8] = {0};
  assert_in_range(n, 1, 8);
  cJSON *ev;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(trace, "traceEvents")) {
    const cJSON *ph = cJSON_GetObjectItem(ev, "ph");
    int64_t pid = jint(ev, "pid");
    if (strcmp(ph->valuestring, "X") || pid < 100) continue;
    int r = (int)(pid / 100) - 1;
    assert_in_range(r, 0, n - 1);
    cJSON *rk = cJSON_GetArrayItem(ranks, r);
    assert_int_equal(jint(rk, "rank"), r);
    assert_int_equal(jint(cJSON_GetObjectItem(ev, "args"), "slack_ns"), jint(rk, "slack_ns"));
    double ts = cJSON_GetObjectItem(ev, "ts")->valuedouble, dur = cJSON_GetObjectItem(ev, "dur")->valuedouble;
    double lo = (double)jint(rk, "placed_at_ns") / 1000.0, hi = lo + (double)jint(rk, "runner_run_dur_ns") / 1000.0;
    assert_true(ts >= lo - 0.001 && ts + dur <= hi + 0.001);
    seen[r]++;
  }
  for (int r = 0; r < n; r++) assert_true(seen[r] > 0);
}

/* One slice of a lane as a viewer reads it: ts and dur rounded to ns apiece. */
typedef struct lane_slice {
  int64_t pid, tid, a, b;
} lane_slice;

static int lane_slice_cmp(const void *x, const void *y) {
  const lane_slice *p = x, *q = y;
  if (p->pid != q->pid) return p->pid < q->pid ? -1 : 1;
  if (p->tid != q->tid) return p->tid < q->tid ? -1 : 1;
  if (p->a != q->a) return p->a < q->a ? -1 : 1;
  return p->b > q->b ? -1 : p->b < q->b; /* the enclosing one first */
}

/* Every slice of the merged trace starts and ends on a whole ns, and no two slices of
** one lane overlap partially once ts and dur are rounded to ns apiece (as Perfetto and
** DevTools read them): each slice either follows or nests in the open ones. The count
** of slices checked. */
static int check_lanes_whole_ns(cJSON *trace) {
  cJSON *evs = cJSON_GetObjectItem(trace, "traceEvents"), *ev;
  lane_slice *v = calloc((size_t)cJSON_GetArraySize(evs) + 1, sizeof *v);
  assert_non_null(v);
  int n = 0;
  cJSON_ArrayForEach(ev, evs) {
    if (strcmp(cJSON_GetObjectItem(ev, "ph")->valuestring, "X")) continue;
    double ts = cJSON_GetObjectItem(ev, "ts")->valuedouble * 1000.0;
    double end = ts + cJSON_GetObjectItem(ev, "dur")->valuedouble * 1000.0;
    if (fabs(ts - round(ts)) > 1e-3 || fabs(end - round(end)) > 1e-3)
      fprintf(stderr, "  not on a whole ns: %s pid %lld ts %.6f ns end %.6f ns\n",
              cJSON_GetObjectItem(ev, "name")->valuestring, (long long)jint(ev, "pid"), ts, end);
    assert_true(fabs(ts - round(ts)) <= 1e-3 && fabs(end - round(end)) <= 1e-3);
    int64_t a = llround(ts);
    v[n++] = (lane_slice){jint(ev, "pid"), jint(ev, "tid"), a, a + llround(cJSON_GetObjectItem(ev, "dur")->valuedouble * 1000.0)};
  }
  qsort(v, (size_t)n, sizeof *v, lane_slice_cmp);
  int64_t open[64];
  int depth = 0;
  for (int i = 0; i < n; i++) {
    if (i && (v[i].pid != v[i - 1].pid || v[i].tid != v[i - 1].tid)) depth = 0;
    while (depth && open[depth - 1] <= v[i].a) depth--;
    if (depth && v[i].b > open[depth - 1])
      fprintf(stderr, "  lane pid %lld tid %lld: [%lld, %lld] overlaps the slice ending at %lld\n", (long long)v[i].pid,
              (long long)v[i].tid, (long long)v[i].a, (long long)v[i].b, (long long)open[depth - 1]);
    assert_false(depth && v[i].b > open[depth - 1]);
    assert_true(depth < 64);
    open[depth++] = v[i].b;
  }
  free(v);
  return n;
}

static void test_merge(void **state) {
  (void)state;
  char *out = NULL;
  cJSON *t = convert(&out, "");
  if (!t) fprintf(stderr, "%s", out);
  assert_non_null(t);
  assert_non_null(strstr(out, "rank1/d0"));
  free(out);
  int rank1_views = 0, sched = 0, bound = 0;
  cJSON *ev;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(t, "traceEvents")) {
    const char *n = cJSON_GetObjectItem(ev, "name")->valuestring;
    if (!strcmp(n, "process_name")) {
      rank1_views += !strncmp(pname(ev), "rank1 / ", 8) && jint(ev, "pid") >= 200;
      sched += !strncmp(pname(ev), "L3 Scheduler", 12) && jint(ev, "pid") < 100;
    }
    if (!strcmp(n, "thread_name")) bound += !strcmp(pname(ev), "Placement Bound") && jint(ev, "pid") < 100;
  }
  assert_true(rank1_views >= 3); /* orchestrator, scheduler, views */
  assert_int_equal(sched, 1);
  assert_int_equal(bound, 2);
  cJSON *meta = cJSON_GetObjectItem(t, "metadata"), *ranks = cJSON_GetObjectItem(meta, "ranks");
  assert_int_equal(cJSON_GetArraySize(ranks), 2);
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(meta, "dispatcher_pids")), 1);
  int64_t sum = 0;
  for (int r = 0; r < 2; r++) {
    cJSON *rk = cJSON_GetArrayItem(ranks, r);
    assert_true(jint(rk, "slack_ns") == jint(rk, "runner_run_dur_ns") - jint(rk, "device_wall_dur_ns"));
    assert_true(cJSON_IsNumber(cJSON_GetObjectItem(cJSON_GetObjectItem(rk, "join"), "residual_ns")));
    sum += jint(rk, "slack_ns");
  }
  assert_int_equal(jint(meta, "cross_rank_uncertainty_ns"), sum);
  check_rank_slices(t, ranks);
  assert_true(check_lanes_whole_ns(t) > 100);
  cJSON_Delete(t);
  /* and the trace is well formed for Perfetto's importer */
  assert_int_equal(sh(&out, "'%s' check-trace '%s/l3_swimlane.json'", g_swimlane, g_work), 0);
  free(out);
}

/* --dispatch d1 (individual tasks) and --dispatch-id of the d0 group. */
static void test_selectors(void **state) {
  (void)state;
  char *out = NULL, p[700];
  cJSON *t = convert(&out, "--dispatch d1");
  if (!t) fprintf(stderr, "%s", out);
  assert_non_null(t);
  assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(t, "metadata"), "dispatch")->valuestring, "d1");
  cJSON_Delete(t);
  free(out);
  snprintf(p, sizeof p, "%s/rank0/d0/dispatch_identity.json", g_work);
  cJSON *id = load_json(p);
  char sel[96];
  snprintf(sel, sizeof sel, "--dispatch-id %lld:%lld", (long long)jint(id, "run_id"), (long long)jint(id, "task_slot"));
  cJSON_Delete(id);
  t = convert(&out, sel);
  assert_non_null(t);
  cJSON *rk = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(t, "metadata"), "ranks"), 1);
  assert_non_null(strstr(cJSON_GetObjectItem(rk, "capture")->valuestring, "rank1/d0/"));
  cJSON_Delete(t);
  free(out);
  expect_refusal("--dispatch-id 1:999999", "names run_id:task_slot 1:999999", "rank0");
  expect_refusal("--dispatch d7", "no d7", NULL);
}

static void test_refuse_asymmetric(void **state) {
  (void)state;
  assert_int_equal(sh(NULL, "rm -r '%s/rank1/d1'", g_work), 0);
  expect_refusal("", "asymmetric local capture indexes", "rank1 has d0");
}

static void test_refuse_other_host(void **state) {
  (void)state;
  assert_int_equal(sh(NULL, "sed -i 's/\"host_clock_domain_id\": \"/&other-/' '%s/rank1/d0/chip_swimlane_records.json'",
                      g_work), 0);
  expect_refusal("", "different hosts", "rank1/d0/chip_swimlane_records.json");
}

static void test_refuse_network1(void **state) {
  (void)state;
  assert_int_equal(sh(NULL, "printf 'swimlane-hostlog 1 pid=9 role=l4 host_clock_domain_id=x\\nspan inv=0 "
                            "name=network1.dispatch clk=host start_ns=1 dur_ns=5\\n' > '%s/host.9.log'", g_work), 0);
  expect_refusal("", "NETWORK1/L4", "host.9.log");
  assert_int_equal(sh(NULL, "rm '%s/host.9.log' && mkdir -p '%s/node0/rank0'", g_work, g_work), 0);
  expect_refusal("", "NETWORK1/L4", "node0");
}

static void test_refuse_host_logs(void **state) {
  (void)state;
  /* --host-log DIR: the logs moved elsewhere are found there (and not beside the ranks) */
  char opt[700], *out = NULL;
  assert_int_equal(sh(NULL, "mkdir '%s/logs' && mv '%s'/host.*.log '%s/logs/'", g_work, g_work, g_work), 0);
  expect_refusal("", "no host.<pid>.log beside the ranks", NULL);
  snprintf(opt, sizeof opt, "--host-log '%s/logs'", g_work);
  cJSON *t = convert(&out, opt);
  if (!t) fprintf(stderr, "%s", out);
  assert_non_null(t);
  free(out);
  cJSON *rk = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(t, "metadata"), "ranks"), 1);
  assert_non_null(strstr(cJSON_GetObjectItem(rk, "host_log")->valuestring, "/logs/host."));
  cJSON_Delete(t);
  assert_int_equal(sh(NULL, "mv '%s/logs/'host.*.log '%s/' && rmdir '%s/logs'", g_work, g_work, g_work), 0);
  expect_refusal("--host-log /nonexistent/l3logs", "host log", "/nonexistent/l3logs");
  assert_int_equal(sh(NULL, "mkdir '%s/empty'", g_work), 0);
  snprintf(opt, sizeof opt, "--host-log '%s/empty'", g_work);
  expect_refusal(opt, "no host.<pid>.log", "empty");
  assert_int_equal(sh(NULL, "echo garbage > \"$(ls '%s'/host.*.log | head -n 1)\"", g_work), 0);
  expect_refusal("", "not a swimlane host log", "host.");
}

/* Rank 1's own host log missing, unreadable or cut short: the rank and the file named. */
static void test_refuse_rank_log(void **state) {
  (void)state;
  char *out = NULL, log[800];
  assert_int_equal(sh(&out, "grep -l 'name=chip.run .*chip_rank=1' '%s'/host.*.log", g_work), 0);
  out[strcspn(out, "\n")] = 0;
  snprintf(log, sizeof log, "%s", out);
  free(out);
  const char *base = strrchr(log, '/') + 1;
  char missing[128];
  snprintf(missing, sizeof missing, "its worker's %s (endpoint_pid) is missing", base);
  assert_int_equal(sh(NULL, "mv '%s' '%s.away'", log, log), 0);
  expect_refusal("", missing, "rank1/d0/dispatch_identity.json: rank 1:");
  assert_int_equal(sh(NULL, "mkdir '%s'", log), 0); /* unreadable as a file */
  expect_refusal("", "cannot read host log: Is a directory", "rank 1's host log (endpoint_pid");
  assert_int_equal(sh(NULL, "rmdir '%s' && head -c 150 '%s.away' > '%s'", log, log, log), 0); /* cut mid-span */
  expect_refusal("", "line 2: malformed span", "rank 1's host log (endpoint_pid");
}

static void test_refuse_other_group(void **state) {
  (void)state;
  assert_int_equal(sh(NULL, "sed -i 's/\"task_slot\": [0-9]*/\"task_slot\": 77/' '%s/rank1/d0/dispatch_identity.json'",
                      g_work), 0);
  expect_refusal("", "different parent groups", "rank1/d0/dispatch_identity.json");
}

static void test_refuse_duplicated_rank(void **state) {
  (void)state;
  assert_int_equal(sh(NULL, "cp -r '%s/rank1' '%s/rank01'", g_work, g_work), 0);
  expect_refusal("", "duplicated rank1", "rank01");
}

static void test_refuse_truncated(void **state) {
  (void)state;
  char p[700];
  snprintf(p, sizeof p, "%s/rank1/d0/chip_swimlane_records.json", g_work);
  struct stat st;
  assert_int_equal(stat(p, &st), 0);
  assert_int_equal(truncate(p, st.st_size / 2 + 1700), 0);
  expect_refusal("", "truncated JSON", "rank1/d0/chip_swimlane_records.json");
  expect_refusal("", "rank1/d0/chip_swimlane_records.json: rank 1: its capture of dispatch d0 cannot be read", NULL);
}

/* A rank whose capture reads with a warning (a foreign schema fingerprint): the merge goes on,
** and the warning is printed once, by the command, naming the rank's capture. */
static void test_rank_capture_warning(void **state) {
  (void)state;
  assert_int_equal(sh(NULL, "sed -i 's/\"schema_fingerprint\": *\"[0-9a-f]*\"/\"schema_fingerprint\": "
                            "\"0000000000000000\"/' '%s/rank1/d0/chip_swimlane_records.json'", g_work), 0);
  char *out = NULL;
  cJSON *t = convert(&out, "");
  if (!t) fprintf(stderr, "%s", out);
  assert_non_null(t);
  cJSON_Delete(t);
  const char *w = strstr(out, "swimlane: warning: ");
  if (!w || !strstr(w, "rank1/d0/chip_swimlane_records.json: ") || !strstr(w, "0000000000000000"))
    fprintf(stderr, "want one schema fingerprint warning naming rank1's capture, got:\n%s", out);
  assert_non_null(w);
  assert_non_null(strstr(w, "rank1/d0/chip_swimlane_records.json: "));
  assert_non_null(strstr(w, "0000000000000000"));
  assert_null(strstr(w + 1, "swimlane: warning: ")); /* printed once */
  assert_null(strstr(out, "rank0/d0/chip_swimlane_records.json: ")); /* rank 0 reads cleanly */
  free(out);
}

/* A capture that reads as host-orchestrated while its metadata head does not say so
** (no orchestrator_source, no host anchors) cannot be placed. */
static void test_refuse_host_mode(void **state) {
  (void)state;
  assert_int_equal(sh(NULL, "python3 -c \"import json; p='%s/rank1/d0/chip_swimlane_records.json'; r=json.load(open(p)); "
                            "r.pop('aicpu_orchestrator_phases', None); r['metadata']['host_capture']={'status': "
                            "'complete'}; json.dump(r, open(p, 'w'))\"", g_work), 0);
  expect_refusal("", "host-orchestrated", "rank1/d0/chip_swimlane_records.json");
}

/* The slices of process pid (one rank view): how many, the earliest start, the latest end. */
static int view_span(cJSON *trace, int64_t pid, double *lo, double *hi) {
  int n = 0;
  *lo = 1e300;
  *hi = -1e300;
  cJSON *ev;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(trace, "traceEvents")) {
    if (strcmp(cJSON_GetObjectItem(ev, "ph")->valuestring, "X") || jint(ev, "pid") != pid) continue;
    double ts = cJSON_GetObjectItem(ev, "ts")->valuedouble, dur = cJSON_GetObjectItem(ev, "dur")->valuedouble;
    *lo = fmin(*lo, ts);
    *hi = fmax(*hi, ts + dur);
    n++;
  }
  return n;
}

/* The pid of the view of rank r whose process name ends in suffix, -1 if none. */
static int64_t view_pid(cJSON *trace, int r, const char *suffix) {
  cJSON *ev;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(trace, "traceEvents")) {
    const char *pn = pname(ev);
    size_t n = strlen(pn), k = strlen(suffix);
    if (!strcmp(cJSON_GetObjectItem(ev, "name")->valuestring, "process_name") && jint(ev, "pid") / 100 == r + 1 &&
        n > k && !strcmp(pn + n - k, suffix))
      return jint(ev, "pid");
  }
  return -1;
}

/* Every host record of rank r's capture is a slice of its Host Orchestrator view at
** exactly its host ns (the host logs' clock): the count of records found. */
static int host_records_at_host_ns(cJSON *trace, int r, const char *dfx) {
  char p[800];
  snprintf(p, sizeof p, "%s/rank%d/d0/chip_swimlane_records.json", dfx, r);
  cJSON *cap = load_json(p), *th, *rec, *ev;
  assert_non_null(cap);
  double origin = (double)jint(cJSON_GetObjectItem(trace, "metadata"), "origin_host_ns");
  int64_t pid = view_pid(trace, r, " / Host Orchestrator");
  assert_true(pid > 0);
  int found = 0;
  cJSON_ArrayForEach(th, cJSON_GetObjectItem(cap, "host_orchestrator_phases")) {
    cJSON_ArrayForEach(rec, th) {
      double want = ((double)jint(rec, "start_host_ns") - origin) / 1000.0;
      int hit = 0;
      cJSON_ArrayForEach(ev, cJSON_GetObjectItem(trace, "traceEvents"))
        hit |= !strcmp(cJSON_GetObjectItem(ev, "ph")->valuestring, "X") && jint(ev, "pid") == pid &&
               fabs(cJSON_GetObjectItem(ev, "ts")->valuedouble - want) < 0.0015;
      assert_true(hit);
      found++;
    }
  }
  cJSON_Delete(cap);
  return found;
}

/* host_build_graph ranks: the run merges them; each rank's host timeline sits at its
** host ns, its device timeline after it, through the capture's clock anchors, inside
** the device window; the .pb captures give the same trace; the refusals. */
static void test_hbg_ranks(void **state) {
  (void)state;
  char dir[600], p[800], *out = NULL;
  snprintf(dir, sizeof dir, "%s/hbg", g_root);
  int rc = sh(&out, "'%s' run mixed_example --ranks 2 --runtime hbg --dispatches 1 --enable-chip-swimlane 4 "
              "--enable-dep-gen -o '%s'", g_swimlane, dir);
  if (rc) fprintf(stderr, "%s", out);
  assert_int_equal(rc, 0);
  assert_non_null(strstr(out, "L3 merge complete: 2 ranks"));
  free(out);
  assert_int_equal(sh(&out, "ls -d '%s'/*/", dir), 0);
  snprintf(g_work, sizeof g_work, "%s", out);
  g_work[strcspn(g_work, "\n")] = 0;
  free(out);
  snprintf(p, sizeof p, "%s/l3_swimlane.json", g_work);
  cJSON *t = load_json(p);
  assert_non_null(t);
  cJSON *ranks = cJSON_GetObjectItem(cJSON_GetObjectItem(t, "metadata"), "ranks");
  assert_int_equal(cJSON_GetArraySize(ranks), 2);
  for (int r = 0; r < 2; r++) {
    cJSON *rk = cJSON_GetArrayItem(ranks, r), *pl = cJSON_GetObjectItem(rk, "placement");
    assert_string_equal(cJSON_GetObjectItem(pl, "method")->valuestring, "host_build_graph_clock_anchors");
    int64_t unc = jint(pl, "uncertainty_ns");
    assert_true(unc > 0);
    assert_int_equal(jint(rk, "slack_ns"), 2 * unc);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(rk, "timeline_metadata"), "layout")->valuestring,
                        "clock_aligned");
    assert_true(host_records_at_host_ns(t, r, g_work) >= 6); /* mixed_example submits 6+ tasks */
    double hlo, hhi, dlo, dhi;
    assert_true(view_span(t, view_pid(t, r, " / Host Orchestrator"), &hlo, &hhi) > 0);
    assert_true(view_span(t, view_pid(t, r, " / Worker View"), &dlo, &dhi) > 0);
    /* host orchestration precedes device execution; the device block lies in its window */
    assert_true(dlo >= hhi - (double)unc / 1000.0);
    double open = cJSON_GetObjectItem(rk, "placed_at_ns")->valuedouble / 1000.0;
    assert_true(dlo >= open - (double)unc / 1000.0);
    assert_true(dhi <= open + (double)(jint(rk, "device_wall_dur_ns") + unc) / 1000.0);
  }
  check_rank_slices(t, ranks);
  assert_true(check_lanes_whole_ns(t) > 100);
  /* the .pb rank captures carry the same anchors: the same trace */
  assert_int_equal(sh(NULL, "'%s' convert '%s' --records pb -q -o '%s/pb.json'", g_swimlane, g_work, g_work), 0);
  snprintf(p, sizeof p, "%s/pb.json", g_work);
  cJSON *from_pb = load_json(p);
  assert_non_null(from_pb);
  assert_same_events(t, from_pb);
  cJSON_Delete(from_pb);
  cJSON_Delete(t);
  rc = sh(&out, "'%s' check-trace '%s'", g_swimlane, g_work);
  if (rc) fprintf(stderr, "%s", out);
  assert_int_equal(rc, 0);
  free(out);
  /* without its clock anchors the device timeline cannot be placed */
  assert_int_equal(sh(NULL, "python3 -c \"import json; p='%s/rank1/d0/chip_swimlane_records.json'; r=json.load(open(p)); "
                            "r['metadata'].pop('clock_anchors'); json.dump(r, open(p, 'w'))\"", g_work), 0);
  expect_refusal("", "without its clock anchors", "rank1/d0/chip_swimlane_records.json");
}

static void test_refuse_window(void **state) {
  (void)state;
  /* rank1's runner_run window narrower than its device wall */
  assert_int_equal(sh(NULL, "for f in '%s'/host.*.log; do grep -q 'chip_rank=1' \"$f\" && grep -q role=chip \"$f\" && "
                            "sed -i '/name=chip.run.runner_run/s/dur_ns=[0-9]*/dur_ns=10/' \"$f\"; done; true", g_work), 0);
  expect_refusal("", "cannot contain", "rank 1");
}

static void test_rank_pid(void **state) {
  (void)state;
  char *out = NULL;
  assert_int_equal(sh(&out, "grep -l 'name=chip.run .*chip_rank=1' '%s'/host.*.log | xargs grep -h '^swimlane-hostlog' | "
                            "sed 's/.*pid=\\([0-9]*\\).*/\\1/'", g_work), 0);
  long pid1 = strtol(out, NULL, 10);
  free(out);
  assert_true(pid1 > 0);
  char opt[64];
  snprintf(opt, sizeof opt, "--rank-pid 1=%ld:0", pid1);
  cJSON *t = convert(&out, opt);
  assert_non_null(t);
  cJSON *rk = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(t, "metadata"), "ranks"), 1);
  assert_int_equal(jint(rk, "host_pid"), pid1);
  cJSON_Delete(t);
  free(out);
  snprintf(opt, sizeof opt, "--rank-pid 0=%ld:0", pid1); /* rank 0 onto rank 1's invocation */
  expect_refusal(opt, "both bind", "host.");
  assert_int_equal(sh(&out, "'%s' convert '%s' --rank-pid nonsense", g_swimlane, g_work), 2); /* usage */
  assert_non_null(strstr(out, "RANK=PID"));
  free(out);
}

/* sched-overhead and check-trace on the directory: per rank, then a total. */
static void test_dir_tools(void **state) {
  (void)state;
  char *out = NULL;
  assert_int_equal(sh(&out, "'%s' sched-overhead '%s'", g_swimlane, g_work), 0);
  assert_non_null(strstr(out, "=== rank0/d0 ==="));
  assert_non_null(strstr(out, "=== rank1/d0 ==="));
  const char *tot = strstr(out, "=== total over 2 ranks (d0) ===");
  assert_non_null(tot);
  long sum = 0, total = -1;
  for (const char *p = out; (p = strstr(p, "Total tasks: ")) != NULL && p < tot; p += 13) sum += strtol(p + 13, NULL, 10);
  const char *tt = strstr(tot, "Tasks: ");
  assert_non_null(tt);
  total = strtol(tt + 7, NULL, 10);
  assert_true(sum > 0);
  assert_int_equal(total, sum);
  free(out);
  /* every dispatch: one report per capture, a total that says how many captures of how many ranks */
  assert_int_equal(sh(&out, "'%s' sched-overhead '%s' --dispatch all", g_swimlane, g_work), 0);
  assert_non_null(strstr(out, "=== rank1/d1 ==="));
  assert_non_null(strstr(out, "=== total over 4 captures of 2 ranks (all) ==="));
  free(out);
  /* check-trace: nothing converted yet, then a rank's own trace plus the merged one */
  assert_int_equal(sh(NULL, "rm '%s/l3_swimlane.json'", g_work), 0); /* the run's own merge */
  assert_int_equal(sh(&out, "'%s' check-trace '%s'", g_swimlane, g_work), 1);
  assert_non_null(strstr(out, "no traces to check"));
  free(out);
  assert_int_equal(sh(NULL, "'%s' convert '%s/rank1/d0/chip_swimlane_records.json'", g_swimlane, g_work), 0);
  cJSON_Delete(convert(NULL, ""));
  assert_int_equal(sh(&out, "'%s' check-trace '%s'", g_swimlane, g_work), 0);
  assert_non_null(strstr(out, "rank1/d0/merged_swimlane.json"));
  assert_non_null(strstr(out, "2 traces checked"));
  free(out);
  /* a rank without its deps.json: named */
  assert_int_equal(sh(NULL, "rm '%s/rank1/d0/deps.json'", g_work), 0);
  assert_int_equal(sh(&out, "'%s' sched-overhead '%s'", g_swimlane, g_work), 1);
  assert_non_null(strstr(out, "rank1/d0/deps.json"));
  free(out);
}

/* No diagnostic on: the ranks run, the host logs are written, no rankN/dK at all. */
static void test_no_diagnostics(void **state) {
  (void)state;
  char dir[600], *out = NULL;
  snprintf(dir, sizeof dir, "%s/plain", g_root);
  int rc = sh(&out, "'%s' run mixed_example --ranks 2 --dispatches 1 -o '%s'", g_swimlane, dir);
  if (rc) fprintf(stderr, "%s", out);
  assert_int_equal(rc, 0);
  free(out);
  assert_int_equal(sh(&out, "ls '%s'/*/host.*.log | wc -l; ls -d '%s'/*/rank*/d* 2>/dev/null | wc -l", dir, dir), 0);
  assert_int_equal(strtol(out, NULL, 10), 3);
  assert_int_equal(strtol(strchr(out, '\n') + 1, NULL, 10), 0);
  free(out);
  /* nothing captured: nothing merged, no merge hint */
  assert_int_equal(sh(&out, "ls '%s'/*/l3_swimlane.json", dir), 2);
  free(out);
}

/* The number of rankN/dK directories under the one case directory of root. */
static long count_rank_dirs(const char *root) {
  char *out = NULL;
  assert_int_equal(sh(&out, "ls -d '%s'/*/rank*/d* | wc -l", root), 0);
  long n = strtol(out, NULL, 10);
  free(out);
  return n;
}

/* A workload that declares an L3 group (`l3 = { ranks, dispatches }`) runs as an L3
** run by itself: the shipped l3/mixed_pair, the command line overriding its counts,
** and a malformed declaration refused. */
static void test_declared_group(void **state) {
  (void)state;
  char dir[600], p[800], *out = NULL;
  snprintf(dir, sizeof dir, "%s/pair", g_root);
  int rc = sh(&out, "'%s' run l3/mixed_pair --enable-chip-swimlane 3 --enable-dep-gen -o '%s'", g_swimlane, dir);
  if (rc) fprintf(stderr, "%s", out);
  assert_int_equal(rc, 0);
  assert_non_null(strstr(out, "L3 run: 2 ranks x 2 dispatches"));
  assert_non_null(strstr(out, "L3 merge complete: 2 ranks"));
  free(out);
  assert_int_equal(count_rank_dirs(dir), 4); /* rank0/d0 d1, rank1/d0 d1 */
  assert_int_equal(sh(&out, "ls '%s'/MixedPair_Case1_*/l3_swimlane.json", dir), 0);
  out[strcspn(out, "\n")] = 0;
  snprintf(p, sizeof p, "%s", out);
  free(out);
  cJSON *t = load_json(p);
  assert_non_null(t);
  cJSON *ranks = cJSON_GetObjectItem(cJSON_GetObjectItem(t, "metadata"), "ranks");
  assert_int_equal(cJSON_GetArraySize(ranks), 2);
  check_rank_slices(t, ranks);
  cJSON_Delete(t);
  /* the command line overrides the declared counts */
  snprintf(dir, sizeof dir, "%s/pair3", g_root);
  rc = sh(&out, "'%s' run l3/mixed_pair --ranks 3 --dispatches 1 --enable-chip-swimlane 2 -q -o '%s'", g_swimlane, dir);
  assert_int_equal(rc, 0);
  free(out);
  assert_int_equal(count_rank_dirs(dir), 3);
  /* a malformed declaration stops the run, naming the file; nothing is written */
  snprintf(p, sizeof p, "%s/bad_group.lua", g_root);
  FILE *f = fopen(p, "w");
  assert_non_null(f);
  fprintf(f, "local w = require('workloads.mixed_example')\nlocal g = {}\nfor k, v in pairs(w) do g[k] = v end\n"
             "g.l3 = { ranks = 0 }\nreturn g\n");
  fclose(f);
  snprintf(dir, sizeof dir, "%s/bad", g_root);
  assert_int_equal(sh(&out, "'%s' run '%s' --enable-chip-swimlane 2 -o '%s'", g_swimlane, p, dir), 1);
  assert_non_null(strstr(out, "'l3' must be a table"));
  assert_non_null(strstr(out, "bad_group.lua"));
  free(out);
  assert_int_equal(sh(&out, "ls -A '%s' 2>/dev/null | wc -l", dir), 0);
  assert_int_equal(strtol(out, NULL, 10), 0);
  free(out);
}

/* The end (µs on the axis) of rank r's "device block (estimated)" on its Placement Bound lane. */
static double block_end_us(cJSON *trace, int r) {
  cJSON *ev;
  char host[32];
  int64_t pid = -1;
  double end = -1;
  snprintf(host, sizeof host, "rank%d / Host (pid ", r);
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(trace, "traceEvents"))
    if (!strcmp(cJSON_GetObjectItem(ev, "name")->valuestring, "process_name") && !strncmp(pname(ev), host, strlen(host)))
      pid = jint(ev, "pid");
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(trace, "traceEvents"))
    if (!strcmp(cJSON_GetObjectItem(ev, "ph")->valuestring, "X") && jint(ev, "pid") == pid &&
        !strcmp(cJSON_GetObjectItem(ev, "name")->valuestring, "device block (estimated)"))
      end = cJSON_GetObjectItem(ev, "ts")->valuedouble + cJSON_GetObjectItem(ev, "dur")->valuedouble;
  assert_true(end > 0);
  return end;
}

/* The true ns of rank host ns h on the simulated host of truth (host = true + offset +
** (true - epoch) * drift). */
static double true_of_host(cJSON *truth, double h) {
  double off = (double)jint(truth, "host_offset_ns"), d = (double)jint(truth, "host_drift_ppb") * 1e-9;
  double ep = (double)jint(truth, "host_epoch_true_ns");
  return (h - off + ep * d) / (1 + d);
}

/* A host_build_graph rank on another host: the first and the last of its host submit
** records (its own host's clock), drawn on the dispatcher's axis, against their true
** ns. The larger error. */
static double host_records_error(cJSON *trace, int r, const char *dfx, cJSON *truth) {
  char p[800];
  snprintf(p, sizeof p, "%s/rank%d/d0/chip_swimlane_records.json", dfx, r);
  cJSON *cap = load_json(p), *th, *rec;
  assert_non_null(cap);
  double first = 1e300, last = -1e300, lo, hi;
  cJSON_ArrayForEach(th, cJSON_GetObjectItem(cap, "host_orchestrator_phases")) cJSON_ArrayForEach(rec, th) {
    first = fmin(first, (double)jint(rec, "start_host_ns"));
    last = fmax(last, (double)jint(rec, "end_host_ns"));
  }
  cJSON_Delete(cap);
  /* the submit slices (the view also holds the uploads, which follow them) */
  int64_t pid = view_pid(trace, r, " / Host Orchestrator");
  int n = 0;
  cJSON *ev;
  lo = 1e300, hi = -1e300;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItem(trace, "traceEvents")) {
    if (strcmp(cJSON_GetObjectItem(ev, "ph")->valuestring, "X") || jint(ev, "pid") != pid ||
        strncmp(cJSON_GetObjectItem(ev, "name")->valuestring, "submit(", 7))
      continue;
    double ts = cJSON_GetObjectItem(ev, "ts")->valuedouble;
    lo = fmin(lo, ts);
    hi = fmax(hi, ts + cJSON_GetObjectItem(ev, "dur")->valuedouble);
    n++;
  }
  assert_true(n >= 6); /* mixed_example submits 6+ tasks */
  double origin = (double)jint(cJSON_GetObjectItem(trace, "metadata"), "origin_host_ns");
  return fmax(fabs(origin + lo * 1000 - true_of_host(truth, first)), fabs(origin + hi * 1000 - true_of_host(truth, last)));
}

/* One cross-host run: rank1 on a simulated second host drifting by ppm. The
** placement error of every rank's device window against the simulator's true
** clock (sim_truth.json) stays within the bound the merge publishes. */
static void cross_host_case(int ppm, int dispatches, int hbg) {
  char dir[600], *out = NULL;
  snprintf(dir, sizeof dir, "%s/xhost_%d_%d_%d", g_root, ppm, dispatches, hbg);
  /* --runtime before the workload: its value is not taken for the workload */
  int rc = sh(&out, "'%s' run %s mixed_example --ranks 2 --hosts 2 --host-drift-ppm %d --dispatches %d "
              "--enable-chip-swimlane 4 -o '%s'", g_swimlane, hbg ? "--runtime hbg" : "", ppm, dispatches, dir);
  if (rc) fprintf(stderr, "%s", out);
  assert_int_equal(rc, 0);
  free(out);
  assert_int_equal(sh(&out, "ls -d '%s'/*/", dir), 0);
  snprintf(g_work, sizeof g_work, "%s", out);
  g_work[strcspn(g_work, "\n")] = 0;
  free(out);
  char p0[800];
  snprintf(p0, sizeof p0, "%s/l3_swimlane.json", g_work);
  cJSON *auto_t = load_json(p0); /* the run's own merge: --cross-host, as it simulated the hosts */
  assert_non_null(auto_t);
  cJSON *pl1 = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(auto_t, "metadata"),
                                                                         "ranks"), 1), "placement");
  assert_string_not_equal(cJSON_GetObjectItem(pl1, "method")->valuestring, "containment");
  cJSON_Delete(auto_t);
  expect_refusal("", "different hosts", "rank1/d0"); /* not without --cross-host */
  cJSON *t = convert(&out, "--cross-host");
  if (!t) fprintf(stderr, "%s", out);
  assert_non_null(t);
  free(out);
  /* the .pb captures carry the same anchors and device window: the same placement */
  assert_int_equal(sh(NULL, "'%s' convert '%s' --cross-host --records pb -o '%s/pb.json'", g_swimlane, g_work, g_work), 0);
  snprintf(p0, sizeof p0, "%s/pb.json", g_work);
  cJSON *from_pb = load_json(p0);
  assert_non_null(from_pb);
  assert_same_events(t, from_pb);
  cJSON_Delete(from_pb);
  /* the estimate scales rank1's device timeline: its edges still land on whole ns */
  assert_true(check_lanes_whole_ns(t) > 100);
  cJSON *meta = cJSON_GetObjectItem(t, "metadata"), *ranks = cJSON_GetObjectItem(meta, "ranks");
  double origin = (double)jint(meta, "origin_host_ns");
  for (int r = 0; r < 2; r++) {
    cJSON *rk = cJSON_GetArrayItem(ranks, r), *pl = cJSON_GetObjectItem(rk, "placement");
    char p[800];
    snprintf(p, sizeof p, "%s/rank%d/d0/sim_truth.json", g_work, r);
    cJSON *truth = load_json(p);
    assert_non_null(truth);
    const char *method = cJSON_GetObjectItem(pl, "method")->valuestring;
    /* rank1 is on host 1; rank0 on the dispatcher's, placed by containment or its anchors */
    assert_string_equal(method, r == 1 ? "cross_host_dispatch_windows_and_clock_anchors"
                                : hbg  ? "host_build_graph_clock_anchors"
                                       : "containment");
    double ns_per_cycle = 20.0; /* a2a3sim: 50 MHz */
    double est = origin + cJSON_GetObjectItem(rk, "placed_at_ns")->valuedouble +
                 (double)(jint(truth, "device_open_cycles") - jint(pl, "device_open_cycles")) * ns_per_cycle;
    double err = est - (double)jint(truth, "device_open_true_ns"), bound = (double)jint(pl, "uncertainty_ns");
    double tu = (double)jint(truth, "device_open_true_uncertainty_ns"); /* the truth's own sampling */
    /* containment draws at the earliest position: the truth is later by at most the slack */
    if (r == 0 && !hbg) assert_true(err <= tu && -err <= bound + tu);
    else assert_true(fabs(err) <= bound + tu);
    if (r == 1) {
      /* the window's close, where the estimated device block ends (the drift acts over the window) */
      double end = origin + block_end_us(t, r) * 1000.0 +
                   (double)(jint(truth, "device_close_cycles") - jint(pl, "device_open_cycles")) * ns_per_cycle -
                   (double)jint(rk, "device_wall_dur_ns");
      double cerr = end - (double)jint(truth, "device_close_true_ns");
      double ctu = (double)jint(truth, "device_close_true_uncertainty_ns");
      double herr = hbg ? host_records_error(t, r, g_work, truth) : 0;
      char hrec[64] = "";
      if (hbg) snprintf(hrec, sizeof hrec, ", host records %.0f ns", herr);
      fprintf(stderr, "  cross-host%s: drift %d ppm, %d dispatches: error %.0f ns at the device window's opening, "
                      "%.0f ns at its close%s, bound %.0f ns\n", hbg ? " (host_build_graph)" : "", ppm, dispatches,
              err, cerr, hrec, bound);
      assert_true(fabs(cerr) <= bound + ctu);
      assert_true(herr <= bound);
    }
    cJSON_Delete(truth);
  }
  cJSON_Delete(t);
}

static void test_cross_host(void **state) {
  (void)state;
  cross_host_case(10, 2, 0);
  cross_host_case(100, 2, 0);
  cross_host_case(100, 4, 0);
  cross_host_case(100, 2, 1); /* host_build_graph ranks: the host records mapped too */
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_l3 SWIMLANE_BINARY [TEST_SINK_PROTO]\n");
    return 2;
  }
  g_swimlane = argv[1];
  g_cmp_proto = argc > 2 ? argv[2] : NULL;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_layout),
      cmocka_unit_test_setup(test_merge, copy_dfx),
      cmocka_unit_test_setup(test_auto_merge, copy_dfx),
      cmocka_unit_test(test_four_ranks),
      cmocka_unit_test_setup(test_pb_ranks, copy_dfx),
      cmocka_unit_test_setup(test_proto_output, copy_dfx),
      cmocka_unit_test_setup(test_selectors, copy_dfx),
      cmocka_unit_test_setup(test_refuse_asymmetric, copy_dfx),
      cmocka_unit_test_setup(test_refuse_other_host, copy_dfx),
      cmocka_unit_test_setup(test_refuse_network1, copy_dfx),
      cmocka_unit_test_setup(test_refuse_host_logs, copy_dfx),
      cmocka_unit_test_setup(test_refuse_rank_log, copy_dfx),
      cmocka_unit_test_setup(test_refuse_other_group, copy_dfx),
      cmocka_unit_test_setup(test_refuse_duplicated_rank, copy_dfx),
      cmocka_unit_test_setup(test_refuse_truncated, copy_dfx),
      cmocka_unit_test_setup(test_rank_capture_warning, copy_dfx),
      cmocka_unit_test_setup(test_refuse_window, copy_dfx),
      cmocka_unit_test_setup(test_refuse_host_mode, copy_dfx),
      cmocka_unit_test_setup(test_rank_pid, copy_dfx),
      cmocka_unit_test_setup(test_dir_tools, copy_dfx),
      cmocka_unit_test(test_no_diagnostics),
      cmocka_unit_test(test_hbg_ranks),
      cmocka_unit_test(test_declared_group),
      cmocka_unit_test(test_cross_host),
  };
  return cmocka_run_group_tests(tests, setup_run, teardown_run);
}

/*
** l0_cli.c — `swimlane l0`: replay one task under the pipe model (core swimlane).
**
** The five steps: (1) the workload's incores, (2) a fresh --dump-args 3 capture
** or --dump-json, (3) the task whose func_id set matches, its args and the
** slot table, (4) the workspace and its smoke build, (5) the replay, both
** traces and the self-check.
*/
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../cli/commands.h"
#include "l0_internal.h"
#include "sl_base.h"
#include "sl_platforms.h"

#define MAX_OVERRIDES 48

typedef struct options {
  const char *test, *func_ids, *task_id, *platform, *case_name, *dump_json;
  int set_slots[MAX_OVERRIDES];
  char set_values[MAX_OVERRIDES][128];
  int nset;
  int restore[MAX_OVERRIDES];
  int nrestore;
  int spmd_block_num;
  int debug_line, no_collect;
  double max_time;
  int want[8];
  int nwant;
} options;

static void usage(FILE *out) {
  fputs("usage: swimlane l0 --test WORKLOAD --func-id A[,B,C] [options]\n"
        "\n"
        "Replay one task of a workload in isolation under the pipe model and write its\n"
        "per-pipe instruction timeline (Insight trace.json + a Perfetto variant).\n"
        "\n"
        "  --test WORKLOAD        workload name (lua/workloads/NAME.lua) or path\n"
        "  --func-id A[,B,C]      the task's member set (exact func_id set of a task)\n"
        "  --task-id HEX          which instance (default: the lowest task id)\n"
        "  --platform P           a2a3sim (default) | a5sim | a2a3 | a5\n"
        "  --case NAME            case to capture (default: first case listing the platform)\n"
        "  --dump-json FILE       reuse an args_dump.json instead of capturing one\n"
        "  --set-arg SLOT=VALUE   override a scalar, or fill an integer tensor (repeatable)\n"
        "  --restore-arg SLOT     initialize a tensor with its dumped bytes (repeatable)\n"
        "  --spmd-block-num N     block_num of the SPMD context at slot 48 (default 1)\n"
        "  -g, --debug-line       compile with -g; trace slices carry source lines\n"
        "  --no-collect           stop after the smoke build\n"
        "  --max-time S           wall-clock budget of the replay in seconds (default 1800)\n",
        out);
}

static int usage_error(const char *fmt, const char *arg) {
  fputs("swimlane l0: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\n(run 'swimlane l0 --help' for the options)\n", stderr);
  return 2;
}

static int parse_int(const char *s, long lo, long hi, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

static int parse_func_ids(const char *s, int *want, int *n) {
  *n = 0;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", s);
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    long v;
    if (*n == 8 || parse_int(tok, 0, 65535, &v) != 0) return -1;
    want[(*n)++] = (int)v;
  }
  return *n > 0 ? 0 : -1;
}

static int parse_options(int argc, char **argv, options *o) {
  enum { O_TEST = 256, O_FUNC, O_TASK, O_PLAT, O_CASE, O_DUMP, O_SET, O_RESTORE, O_SPMD, O_NOCOL, O_MAXT };
  static const struct option longs[] = {
      {"test", required_argument, NULL, O_TEST},     {"func-id", required_argument, NULL, O_FUNC},
      {"task-id", required_argument, NULL, O_TASK},  {"platform", required_argument, NULL, O_PLAT},
      {"case", required_argument, NULL, O_CASE},     {"dump-json", required_argument, NULL, O_DUMP},
      {"set-arg", required_argument, NULL, O_SET},   {"restore-arg", required_argument, NULL, O_RESTORE},
      {"spmd-block-num", required_argument, NULL, O_SPMD},
      {"debug-line", no_argument, NULL, 'g'},        {"no-collect", no_argument, NULL, O_NOCOL},
      {"max-time", required_argument, NULL, O_MAXT}, {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  memset(o, 0, sizeof *o);
  o->platform = sl_platform_default_sim();
  o->spmd_block_num = 1;
  o->max_time = 1800;
  optind = 1;
  opterr = 0;
  int c;
  char err[256];
  while ((c = getopt_long(argc, argv, "gh", longs, NULL)) != -1) {
    long v;
    switch (c) {
    case O_TEST: o->test = optarg; break;
    case O_FUNC: o->func_ids = optarg; break;
    case O_TASK: o->task_id = optarg; break;
    case O_PLAT: o->platform = optarg; break;
    case O_CASE: o->case_name = optarg; break;
    case O_DUMP: o->dump_json = optarg; break;
    case O_SET:
      if (o->nset == MAX_OVERRIDES) return usage_error("too many --set-arg%s", "");
      if (sl_l0_parse_set_arg(optarg, &o->set_slots[o->nset], o->set_values[o->nset], sizeof o->set_values[0], err,
                           sizeof err) != 0)
        return usage_error("%s", err);
      o->nset++;
      break;
    case O_RESTORE:
      if (parse_int(optarg, 0, 49, &v) != 0)
        return usage_error("--restore-arg SLOT must be in [0, 49] (got '%s')", optarg);
      if (v >= 48) return usage_error("--restore-arg SLOT %s is an SPMD context slot, not a tensor", optarg);
      {
        int dup = 0;
        for (int i = 0; i < o->nrestore; i++) dup |= o->restore[i] == v;
        if (!dup && o->nrestore < MAX_OVERRIDES) o->restore[o->nrestore++] = (int)v;
      }
      break;
    case O_SPMD:
      if (parse_int(optarg, 1, 1 << 20, &v) != 0)
        return usage_error("--spmd-block-num must be a positive integer (got '%s')", optarg);
      o->spmd_block_num = (int)v;
      break;
    case 'g': o->debug_line = 1; break;
    case O_NOCOL: o->no_collect = 1; break;
    case O_MAXT: {
      char *end;
      o->max_time = strtod(optarg, &end);
      if (end == optarg || *end || !(o->max_time > 0) || o->max_time > 86400)
        return usage_error("--max-time must be seconds in (0, 86400] (got '%s')", optarg);
      break;
    }
    case 'h': usage(stdout); return 0;
    default: return usage_error("unknown or incomplete option '%s'", argv[optind - 1]);
    }
  }
  if (optind < argc) return usage_error("unexpected argument '%s'", argv[optind]);
  if (!o->test) return usage_error("--test WORKLOAD is required%s", "");
  if (!o->func_ids) return usage_error("--func-id A[,B,C] is required%s", "");
  if (parse_func_ids(o->func_ids, o->want, &o->nwant) != 0)
    return usage_error("--func-id must be a comma-separated list of integers (got '%s')", o->func_ids);
  for (int i = 0; i < o->nrestore; i++)
    for (int k = 0; k < o->nset; k++)
      if (o->restore[i] == o->set_slots[k]) {
        char s[16];
        snprintf(s, sizeof s, "%d", o->restore[i]);
        return usage_error("arg slot %s cannot use both --restore-arg and --set-arg", s);
      }
  if (!sl_platform_by_name(o->platform)) {
    char names[256], msg[320];
    snprintf(msg, sizeof msg, "Unknown platform: %%s. Supported: %s", sl_platform_names(names, sizeof names, 0));
    return usage_error(msg, o->platform);
  }
  return -1; /* parsed, go on */
}

/* Case name from outputs/<Class>_<Case>_<YYYYMMDD_HHMMSS>/args_dump/args_dump.json. */
static char *case_from_manifest(const char *manifest, const char *cls) {
  char *copy = strdup(manifest);
  char *run = NULL;
  for (int up = 0; up < 2; up++) {
    char *slash = strrchr(copy, '/');
    if (!slash) break;
    *slash = '\0';
  }
  run = strrchr(copy, '/');
  run = run ? run + 1 : copy;
  char *out = NULL;
  size_t cl = strlen(cls);
  if (!strncmp(run, cls, cl) && run[cl] == '_') {
    regex_t re;
    if (regcomp(&re, "^(.+)_[0-9]{8}_[0-9]{6}$", REG_EXTENDED) == 0) {
      regmatch_t mt[2];
      if (regexec(&re, run + cl + 1, 2, mt, 0) == 0) out = strndup(run + cl + 1, (size_t)mt[1].rm_eo);
      regfree(&re);
    }
  }
  free(copy);
  return out ? out : strdup("case");
}

static void print_dims(const sl_l0_arg *a) {
  printf("[");
  for (int i = 0; i < a->ndims; i++) printf("%s%" PRId64, i ? ", " : "", a->shape[i]);
  printf("]");
}

static void print_list(const int *v, int n) {
  printf("[");
  for (int i = 0; i < n; i++) printf("%s%d", i ? ", " : "", v[i]);
  printf("]");
}

static void print_task(const options *o, const sl_l0_task *t, const sl_l0_plan *p) {
  printf(L0_PREFIX "func_id=");
  print_list(o->want, o->nwant);
  printf(" task=%s mix=", t->task_id);
  print_list(t->mix, t->nmix);
  printf(" mode=%s block_num=%d\n", p->nmembers > 1 ? "mix" : p->members[0]->core_type, p->spmd_block_num);
  printf("              members=[");
  for (int i = 0; i < p->nmembers; i++)
    printf("%s%s(%s,func %d)", i ? ", " : "", p->members[i]->name, p->members[i]->core_type,
           p->members[i]->func_id);
  printf("]\n");
  printf(L0_PREFIX "task %s: %d tensors, %d scalars\n", t->task_id, t->ntensors, t->nscalars);
  printf(L0_PREFIX "arg slots (override with --set-arg SLOT=VALUE or --restore-arg SLOT):\n");
  for (int i = 0; i < t->nargs; i++) {
    const sl_l0_arg *a = &t->args[i];
    if (a->is_tensor) {
      printf("    slot %-2d tensor  %-8s ", a->slot, a->dtype);
      print_dims(a);
      printf("%s\n", a->init == L0_INIT_RESTORE ? "  [restored payload]" : "");
    } else {
      char v[64];
      sl_l0_scalar_text(a, v, sizeof v);
      printf("    slot %-2d scalar  %-8s = %s\n", a->slot, a->dtype, v);
    }
  }
}

static char *make_label(const sl_l0_workload *w, const char *case_name, const char *platform,
                        const sl_l0_incore *first, const sl_l0_task *t) {
  char buf[1024];
  size_t n = (size_t)snprintf(buf, sizeof buf, "%s_%s_%s_%s_mix", w->class_name, case_name, platform, first->name);
  for (int i = 0; i < t->nmix && n < sizeof buf; i++)
    n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%d", i ? "_" : "", t->mix[i]);
  for (char *c = buf; *c; c++) /* file-name safe */
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_' ||
          *c == '-' || *c == '.'))
      *c = '_';
  return strdup(buf);
}

static char *make_ws(const char *label) {
  char stamp[32], buf[1200];
  time_t now = time(NULL);
  struct tm tm;
  localtime_r(&now, &tm);
  strftime(stamp, sizeof stamp, "%Y%m%d_%H%M%S", &tm);
  snprintf(buf, sizeof buf, "outputs/l0_swimlane_%s_%s", label, stamp);
  struct stat st;
  for (int k = 1; stat(buf, &st) == 0 && k < 1000; k++) /* two runs in one second */
    snprintf(buf, sizeof buf, "outputs/l0_swimlane_%s_%s_%d", label, stamp, k);
  return strdup(buf);
}

int sl_cmd_l0(int argc, char **argv) {
  options o;
  int prc = parse_options(argc, argv, &o);
  if (prc >= 0) return prc;

  sl_l0_workload w;
  sl_l0_manifest m;
  sl_l0_task t;
  memset(&m, 0, sizeof m);
  memset(&t, 0, sizeof t);
  sl_l0_plan p;
  memset(&p, 0, sizeof p);
  char *manifest = NULL, *case_owned = NULL;
  int rc = 1;

  /* step 1: the workload's incores */
  char *wpath = sl_l0_workload_resolve(o.test);
  if (!wpath) {
    sl_error(o.test, "workload not found (give a path or a name under lua/workloads/)");
    return 1;
  }
  if (sl_l0_workload_load(wpath, &w) != 0) {
    free(wpath);
    return 1;
  }
  if (!sl_l0_workload_incore(&w, o.want[0])) {
    char list[2048];
    size_t n = 0;
    list[0] = '\0';
    for (int i = 0; i < w.nincores && n < sizeof list; i++)
      n += (size_t)snprintf(list + n, sizeof list - n, "%s%d=%s(%s)", i ? ", " : "", w.incores[i].func_id,
                            w.incores[i].name, w.incores[i].core_type);
    sl_error(wpath, "func_id=%d not found. Available incores: %s", o.want[0], list);
    goto out;
  }
  const char *case_name = o.case_name;
  if (case_name) {
    const sl_l0_case *c = sl_l0_workload_case(&w, case_name);
    if (!c && !o.dump_json) {
      sl_error(wpath, "no case named %s in this workload", case_name);
      goto out;
    }
    if (c) case_name = c->name;
  } else if (!o.dump_json) {
    const sl_l0_case *c = sl_l0_workload_auto_case(&w, o.platform);
    if (!c) {
      sl_error(wpath, "no case lists platform %s (CASES[*].platforms); pass --case or another --platform",
               o.platform);
      goto out;
    }
    case_name = c->name;
    printf(L0_PREFIX "no --case; auto-pinned first %s case: %s\n", o.platform, case_name);
  }

  /* step 2: the args dump */
  if (o.dump_json) {
    struct stat st;
    if (stat(o.dump_json, &st) != 0 || !S_ISREG(st.st_mode)) {
      sl_error(o.dump_json, "--dump-json not found");
      goto out;
    }
    manifest = strdup(o.dump_json);
  } else {
    /* sim platforms capture on the simulated chip; onboard names map to their sim twin here */
    char sim[16];
    snprintf(sim, sizeof sim, "%s%s", o.platform, strstr(o.platform, "sim") ? "" : "sim");
    manifest = sl_l0_run_dump(wpath, case_name, sim);
    if (!manifest) goto out;
  }
  if (!case_name) case_name = case_owned = case_from_manifest(manifest, w.class_name);

  /* step 3: reconstruct */
  if (sl_l0_manifest_load(manifest, &m) != 0) goto out;
  if (sl_l0_reconstruct(&m, o.want, o.nwant, o.task_id, &t) != 0) goto out;
  if (sl_l0_restore_args(&m, &t, o.restore, o.nrestore) != 0) goto out;
  p.w = &w;
  p.case_name = case_name;
  p.manifest = manifest;
  p.platform = o.platform;
  p.arch = sl_platform_by_name(o.platform)->arch; /* checked by parse_opts */
  p.task = &t;
  p.spmd_block_num = o.spmd_block_num;
  p.debug_line = o.debug_line;
  p.max_time = o.max_time;
  for (int i = 0; i < t.nmix; i++) {
    const sl_l0_incore *ic = sl_l0_workload_incore(&w, t.mix[i]);
    if (!ic) {
      sl_error(wpath, "dump task %s has func_id %d with no matching incore in this workload", t.task_id, t.mix[i]);
      goto out;
    }
    if (strcmp(ic->core_type, "aic") && strcmp(ic->core_type, "aiv")) {
      sl_error(wpath, "unsupported core_type %s for func_id %d (only aic/aiv)", ic->core_type, ic->func_id);
      goto out;
    }
    p.members[p.nmembers++] = ic;
  }
  print_task(&o, &t, &p);
  for (int i = 0; i < o.nset; i++)
    if (sl_l0_apply_set_arg(&t, o.set_slots[i], o.set_values[i], manifest) != 0) goto out;

  /* step 4: workspace + smoke build */
  p.label = make_label(&w, case_name, o.platform, sl_l0_workload_incore(&w, o.want[0]), &t);
  p.ws = make_ws(p.label);
  if (sl_mkdirs("outputs") != 0) goto out;
  if (sl_l0_render_workspace(&p) != 0) goto out;
  printf(L0_PREFIX "workspace: %s\n", p.ws);
  if (sl_l0_smoke_build(&p) != 0) goto out;
  if (o.no_collect) {
    printf(L0_PREFIX "--no-collect: stopping after smoke build.\n  %s\n", p.ws);
    rc = 0;
    goto out;
  }

  /* step 5: replay, traces, self-check */
  if (sl_l0_collect(&p) != 0) goto out;
  rc = 0;
out:
  sl_l0_task_free(&t);
  sl_l0_manifest_free(&m);
  sl_l0_workload_free(&w);
  free(wpath);
  free(manifest);
  free(case_owned);
  free(p.label);
  free(p.ws);
  return rc;
}

/*
** l0_cli.c — `swimlane l0`: replay one task under the pipe model (core swimlane).
**
** The five steps: (1) the workload's incores, (2) a fresh --dump-args 3 capture
** or --dump-json, (3) the task whose func_id set matches, its args and the
** slot table, (4) the workspace and its smoke build, (5) the replay, both
** traces and the self-check.
*/
#include <errno.h>
#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "l0_internal.h"
#include "sl_base.h"
#include "sl_opt.h"
#include "sl_platforms.h"
#include "sl_mem.h"

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

static options g_o; /* what the table below fills */

/* --set-arg SLOT=VALUE, repeatable. */
static int add_set_arg(void *target, const char *value, char *err, size_t errlen) {
  options *o = target;
  if (o->nset == MAX_OVERRIDES) return snprintf(err, errlen, "too many --set-arg"), -1;
  if (sl_l0_parse_set_arg(value, &o->set_slots[o->nset], o->set_values[o->nset], sizeof o->set_values[0], err,
                          errlen) != 0)
    return -1;
  o->nset++;
  return 0;
}

/* --restore-arg SLOT, repeatable; a slot given twice counts once. */
static int add_restore_arg(void *target, const char *value, char *err, size_t errlen) {
  options *o = target;
  long v;
  if (parse_int(value, 0, 49, &v) != 0)
    return snprintf(err, errlen, "--restore-arg SLOT must be in [0, 49] (got '%s')", value), -1;
  if (v >= 48) return snprintf(err, errlen, "--restore-arg SLOT %s is an SPMD context slot, not a tensor", value), -1;
  for (int i = 0; i < o->nrestore; i++)
    if (o->restore[i] == v) return 0;
  if (o->nrestore < MAX_OVERRIDES) o->restore[o->nrestore++] = (int)v;
  return 0;
}

static int set_max_time(void *target, const char *value, char *err, size_t errlen) {
  char *end;
  double t = strtod(value, &end);
  if (end == value || *end || !(t > 0) || t > 86400)
    return snprintf(err, errlen, "--max-time must be seconds in (0, 86400] (got '%s')", value), -1;
  *(double *)target = t;
  return 0;
}

static const sl_opt l0_table[] = {
    {.name = "test", .kind = SL_OPT_STRING, .arg = "WORKLOAD", .target = &g_o.test,
     .help = "workload name (lua/workloads/NAME.lua) or path"},
    {.name = "func-id", .kind = SL_OPT_STRING, .arg = "A[,B,C]", .target = &g_o.func_ids,
     .help = "the task's member set (exact func_id set of a task)"},
    {.name = "task-id", .kind = SL_OPT_STRING, .arg = "HEX", .target = &g_o.task_id,
     .help = "which instance (default: the lowest task id)"},
    {.name = "platform", .kind = SL_OPT_STRING, .arg = "P", .target = &g_o.platform,
     .help = "the platform (default: the default simulated one)"},
    {.name = "case", .kind = SL_OPT_STRING, .arg = "NAME", .target = &g_o.case_name,
     .help = "case to capture (default: first case listing the platform)"},
    {.name = "dump-json", .kind = SL_OPT_STRING, .arg = "FILE", .target = &g_o.dump_json,
     .help = "reuse an args_dump.json instead of capturing one"},
    {.name = "set-arg", .kind = SL_OPT_CALL, .arg = "SLOT=VALUE", .call = add_set_arg, .target = &g_o,
     .help = "override a scalar, or fill an integer tensor (repeatable)"},
    {.name = "restore-arg", .kind = SL_OPT_CALL, .arg = "SLOT", .call = add_restore_arg, .target = &g_o,
     .help = "initialize a tensor with its dumped bytes (repeatable)"},
    {.name = "spmd-block-num", .kind = SL_OPT_INT, .arg = "N", .lo = 1, .hi = 1 << 20,
     .target = &g_o.spmd_block_num, .help = "block_num of the SPMD context at slot 48 (default 1)"},
    {.name = "debug-line", .short_name = 'g', .kind = SL_OPT_FLAG, .target = &g_o.debug_line,
     .help = "compile with -g; trace slices carry source lines"},
    {.name = "no-collect", .kind = SL_OPT_FLAG, .target = &g_o.no_collect, .help = "stop after the smoke build"},
    {.name = "max-time", .kind = SL_OPT_CALL, .arg = "S", .call = set_max_time, .target = &g_o.max_time,
     .help = "wall-clock budget of the replay in seconds (default 1800)"},
    {.name = NULL},
};

static void l0_more_help(FILE *out) {
  char names[256];
  fprintf(out, "Platforms: %s.\n", sl_platform_names(names, sizeof names, 0));
}

static const sl_opt_spec l0_spec = {
    .cmd = "l0",
    .synopsis = "--test WORKLOAD --func-id A[,B,C] [options]",
    .about = "Replay one task of a workload in isolation under the pipe model and write its\n"
             "per-pipe instruction timeline (Insight trace.json + a Perfetto variant).",
    .opts = l0_table,
    .more_help = l0_more_help,
};

/* After the table: what only the whole command line can tell. */
static int check_options(options *o) {
  if (!o->test) return sl_opt_usage_error("l0", "--test WORKLOAD is required");
  if (!o->func_ids) return sl_opt_usage_error("l0", "--func-id A[,B,C] is required");
  if (parse_func_ids(o->func_ids, o->want, &o->nwant) != 0)
    return sl_opt_usage_error("l0", "--func-id must be a comma-separated list of integers (got '%s')", o->func_ids);
  for (int i = 0; i < o->nrestore; i++)
    for (int k = 0; k < o->nset; k++)
      if (o->restore[i] == o->set_slots[k])
        return sl_opt_usage_error("l0", "arg slot %d cannot use both --restore-arg and --set-arg", o->restore[i]);
  if (!sl_platform_by_name(o->platform)) {
    char names[256];
    return sl_opt_usage_error("l0", "Unknown platform: %s. Supported: %s", o->platform,
                              sl_platform_names(names, sizeof names, 0));
  }
  return SL_OPT_GO;
}

static int parse_options(int argc, char **argv, options *o) {
  memset(&g_o, 0, sizeof g_o);
  g_o.platform = sl_platform_default_sim();
  g_o.spmd_block_num = 1;
  g_o.max_time = 1800;
  int rc = sl_opt_parse(&l0_spec, argc, argv);
  *o = g_o;
  return rc != SL_OPT_GO ? rc : check_options(o);
}

/* Case name from outputs/<Class>_<Case>_<YYYYMMDD_HHMMSS>/args_dump/args_dump.json. */
static char *case_from_manifest(const char *manifest, const char *cls) {
  char *copy = sl_mem_strdup(manifest);
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
      if (regexec(&re, run + cl + 1, 2, mt, 0) == 0) out = sl_mem_strndup(run + cl + 1, (size_t)mt[1].rm_eo);
      regfree(&re);
    }
  }
  sl_mem_free(copy);
  return out ? out : sl_mem_strdup("case");
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
  return sl_mem_strdup(buf);
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
  return sl_mem_strdup(buf);
}

/* Step 1: the wanted func_id is one of the workload's incores. 0 ok, -1 (reported). */
static int check_incore(const options *o, const sl_l0_workload *w, const char *wpath) {
  if (sl_l0_workload_incore(w, o->want[0])) return 0;
  char list[2048];
  size_t n = 0;
  list[0] = '\0';
  for (int i = 0; i < w->nincores && n < sizeof list; i++)
    n += (size_t)snprintf(list + n, sizeof list - n, "%s%d=%s(%s)", i ? ", " : "", w->incores[i].func_id,
                          w->incores[i].name, w->incores[i].core_type);
  sl_error(wpath, "func_id=%d not found. Available incores: %s", o->want[0], list);
  return -1;
}

/* Step 1: the case, given or the first listing the platform (NULL: read from the dump
** later). 0 ok, -1 (reported). */
static int pick_case(const options *o, const sl_l0_workload *w, const char *wpath, const char **case_name) {
  *case_name = o->case_name;
  if (o->case_name) {
    const sl_l0_case *c = sl_l0_workload_case(w, o->case_name);
    if (!c && !o->dump_json) {
      sl_error(wpath, "no case named %s in this workload", o->case_name);
      return -1;
    }
    if (c) *case_name = c->name;
  } else if (!o->dump_json) {
    const sl_l0_case *c = sl_l0_workload_auto_case(w, o->platform);
    if (!c) {
      sl_error(wpath, "no case lists platform %s (CASES[*].platforms); pass --case or another --platform",
               o->platform);
      return -1;
    }
    *case_name = c->name;
    printf(L0_PREFIX "no --case; auto-pinned first %s case: %s\n", o->platform, *case_name);
  }
  return 0;
}

/* Step 2: the args dump's manifest path (malloc'd): --dump-json, or a fresh capture. */
static char *args_dump(const options *o, const char *wpath, const char *case_name) {
  if (o->dump_json) {
    struct stat st;
    if (stat(o->dump_json, &st) != 0 || !S_ISREG(st.st_mode)) {
      sl_error(o->dump_json, "--dump-json not found");
      return NULL;
    }
    return sl_mem_strdup(o->dump_json);
  }
  /* sim platforms capture on the simulated chip; onboard names map to their sim twin here */
  char sim[16];
  snprintf(sim, sizeof sim, "%s%s", o->platform, strstr(o->platform, "sim") ? "" : "sim");
  return sl_l0_run_dump(wpath, case_name, sim);
}

/* Step 3: the plan's members, one incore per func_id of the task's mix. 0 ok, -1 (reported). */
static int plan_members(sl_l0_plan *p, const sl_l0_workload *w, const sl_l0_task *t, const char *wpath) {
  for (int i = 0; i < t->nmix; i++) {
    const sl_l0_incore *ic = sl_l0_workload_incore(w, t->mix[i]);
    if (!ic) {
      sl_error(wpath, "dump task %s has func_id %d with no matching incore in this workload", t->task_id, t->mix[i]);
      return -1;
    }
    if (strcmp(ic->core_type, "aic") && strcmp(ic->core_type, "aiv")) {
      sl_error(wpath, "unsupported core_type %s for func_id %d (only aic/aiv)", ic->core_type, ic->func_id);
      return -1;
    }
    p->members[p->nmembers++] = ic;
  }
  return 0;
}

int sl_cmd_l0(int argc, char **argv); /* declared for the CLI in tools/cli/commands.h */
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
    sl_mem_free(wpath);
    return 1;
  }
  const char *case_name;
  if (check_incore(&o, &w, wpath) != 0 || pick_case(&o, &w, wpath, &case_name) != 0) goto out;

  /* step 2: the args dump */
  manifest = args_dump(&o, wpath, case_name);
  if (!manifest) goto out;
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
  if (plan_members(&p, &w, &t, wpath) != 0) goto out;
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
  sl_mem_free(wpath);
  sl_mem_free(manifest);
  sl_mem_free(case_owned);
  sl_mem_free(p.label);
  sl_mem_free(p.ws);
  return rc;
}

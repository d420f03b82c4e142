/*
** l0_collect.c — step 5: run the replay, write both traces, self-check.
**
** run_collect.sh builds and runs the replay under the pipe model and leaves
** insight_export/OPPROF_<stamp>/simulator/trace.json. Here the newest export is
** copied pretty-printed to <label>_trace.json, converted to
** <label>_trace_perfetto.json, and its MMAD / FIX_L0C_TO_DST counts checked.
*/
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "l0_internal.h"
#include "sl_base.h"

/* Newest insight_export/OPPROF_* /simulator/trace.json (by name: stamps sort). */
static char *find_export(const char *ws) {
  char *root = sl_path_join(ws, "insight_export");
  DIR *d = root ? opendir(root) : NULL;
  char *best = NULL, *best_name = NULL;
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (strncmp(e->d_name, "OPPROF_", 7) != 0) continue;
    char rel[512];
    snprintf(rel, sizeof rel, "%s/simulator/trace.json", e->d_name);
    char *p = sl_path_join(root, rel);
    struct stat st;
    if (p && stat(p, &st) == 0 && (!best_name || strcmp(e->d_name, best_name) > 0)) {
      free(best);
      free(best_name);
      best = p;
      best_name = strdup(e->d_name);
    } else {
      free(p);
    }
  }
  if (d) closedir(d);
  free(root);
  free(best_name);
  return best;
}

static long issued(const cJSON *trace, const char *name) {
  const cJSON *od = cJSON_GetObjectItemCaseSensitive(trace, "otherData");
  const cJSON *is = cJSON_GetObjectItemCaseSensitive(od, "issued");
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(is, name);
  return cJSON_IsNumber(v) ? (long)v->valuedouble : -1;
}

int sl_l0_self_check(const cJSON *trace) {
  long mmad, fix;
  sl_l0_count_cube(trace, &mmad, &fix);
  long want_mmad = issued(trace, "MMAD"), want_fix = issued(trace, "FIX_L0C_TO_DST");
  if (want_mmad < 0 || want_fix < 0) {
    printf(L0_PREFIX "self-check: trace carries no issued counts (otherData.issued); MMAD=%ld "
                     "FIX_L0C_TO_DST=%ld not checked\n", mmad, fix);
    return 0;
  }
  if (want_mmad == 0 && want_fix == 0 && mmad == 0 && fix == 0) {
    printf(L0_PREFIX "self-check: no cube work in this task (MMAD=0, FIX_L0C_TO_DST=0)\n");
    return 0;
  }
  if (mmad == want_mmad && fix == want_fix) {
    printf(L0_PREFIX "self-check OK: MMAD %ld == n_blocks %ld, FIX_L0C_TO_DST %ld == n_blocks %ld\n", mmad,
           want_mmad, fix, want_fix);
    return 0;
  }
  printf(L0_PREFIX "WARNING: self-check failed: MMAD %ld (n_blocks %ld), FIX_L0C_TO_DST %ld (n_blocks %ld).\n"
                   "  The trace's tail was truncated (the replay ran every block; the exported instruction\n"
                   "  stream is cut). Do not draw timing conclusions; re-run or change n_blocks.\n",
         mmad, want_mmad, fix, want_fix);
  return 1;
}

int sl_l0_collect(const sl_l0_plan *p) {
  char *script = sl_path_join(p->ws, "run_collect.sh");
  char *argv[] = {"bash", script, NULL};
  int st = sl_l0_spawn(argv, NULL);
  if (st != 0) {
    if (st == 124 || st == 128 + 9 || st == 128 + 14)
      sl_error(script, "replay exceeded --max-time %g s (shrink the loop count with --set-arg)", p->max_time);
    else
      sl_error(script, "collect failed (exit %d)", st);
    free(script);
    return -1;
  }
  free(script);
  char *raw_path = find_export(p->ws);
  if (!raw_path) {
    sl_error(p->ws, "no insight_export/OPPROF_*/simulator/trace.json produced — check msprof_collect/collect.log");
    return -1;
  }
  char name[1024];
  snprintf(name, sizeof name, "%s_trace.json", p->label);
  char *dest = sl_path_join(p->ws, name);
  snprintf(name, sizeof name, "%s_trace_perfetto.json", p->label);
  char *perf = sl_path_join(p->ws, name);
  int rc = -1;
  size_t len;
  char *text = sl_l0_read_file(raw_path, &len);
  cJSON *doc = text ? cJSON_ParseWithLength(text, len) : NULL, *pf = NULL;
  if (!doc) {
    if (text) sl_error(raw_path, "exported trace is not valid JSON; no Perfetto variant written");
    goto out;
  }
  if (sl_l0_write_json(dest, doc) != 0) goto out;
  char err[256];
  pf = sl_l0_to_perfetto(doc, err, sizeof err);
  if (!pf) {
    sl_error(raw_path, "%s", err);
    goto out;
  }
  if (sl_l0_write_json(perf, pf) != 0) goto out;
  sl_l0_self_check(doc);
  printf(L0_PREFIX "DONE. trace.json (Insight) -> %s\n", dest);
  printf(L0_PREFIX "      perfetto-friendly  -> %s\n", perf);
  rc = 0;
out:
  cJSON_Delete(doc);
  cJSON_Delete(pf);
  free(text);
  free(raw_path);
  free(dest);
  free(perf);
  return rc;
}

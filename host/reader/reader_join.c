/*
** reader_join.c — from cycle-domain rows to the joined µs model (the
** reference's read_perf_data; docs/reader.md): validation, the
** (core_id, reg_task_id) join, base time, cycles -> µs, stable task sort.
*/
#include <stdlib.h>
#include <string.h>

#include "reader_raw.h"
#include "reader_util.h"
#include "sl_base.h"
#include "sl_levels.h"

void sl_raw_free(sl_raw *raw) {
  sl_mem_free(raw->aicore);
  sl_mem_free(raw->stask);
  sl_mem_free(raw->lc_cycles);
  sl_mem_free(raw->host_orch);
  sl_mem_free(raw->host_ns);
  sl_mem_free(raw->host_threads);
  sl_mem_free(raw->upload_ns);
  sl_mem_free(raw->samples);
  memset(raw, 0, sizeof *raw);
}

/* AICore receive time in cycles: start - receive_to_start, non-positive -> 0. */
static uint64_t receive_cycles(const sl_raw_aicore *a) { return a->start > a->r2s ? a->start - a->r2s : 0; }

static void consider(uint64_t *base, uint64_t v) {
  if (v > 0 && (*base == 0 || v < *base)) *base = v;
}

/* us(c): 0 -> 0.0; every positive c is >= base (base is their minimum).
** Host mode: on the host axis when the clocks are aligned, else after the host block. */
static inline double to_us(const sl_capture *c, uint64_t cyc) {
  if (cyc == 0) return 0.0;
  if (c->align.calibrated) return sl_host_device_us(c, cyc);
  double rel = (double)(cyc - c->base_cycles) * c->us_per_cycle;
  return c->host_mode ? c->host_composite_end_us + rel : rel;
}

/* ---- (core, reg) -> aicore row ------------------------------------------------------ */

typedef struct join_map {
  uint32_t *slot; /* row index + 1; 0 = empty */
  size_t cap;
} join_map;

static size_t join_hash(uint64_t core, uint64_t reg, size_t cap) {
  uint64_t k = reg * 0x9e3779b97f4a7c15ULL ^ (core + 0x632be59bd9b4e019ULL) * 0xff51afd7ed558ccdULL;
  k ^= k >> 31;
  return (size_t)k & (cap - 1);
}

static void join_build(join_map *m, const sl_raw *raw) {
  m->cap = 64;
  while (m->cap < raw->n_aicore * 2) m->cap *= 2;
  m->slot = sl_mem_calloc(m->cap, sizeof *m->slot);
  for (size_t i = 0; i < raw->n_aicore; i++) {
    const sl_raw_aicore *a = &raw->aicore[i];
    size_t j = join_hash(a->core, a->reg, m->cap);
    while (m->slot[j]) {
      const sl_raw_aicore *b = &raw->aicore[m->slot[j] - 1];
      if (b->core == a->core && b->reg == a->reg) break; /* a later row overwrites */
      j = (j + 1) & (m->cap - 1);
    }
    m->slot[j] = (uint32_t)(i + 1);
  }
}

static const sl_raw_aicore *join_find(const join_map *m, const sl_raw *raw, uint64_t core, uint64_t reg) {
  size_t j = join_hash(core, reg, m->cap);
  while (m->slot[j]) {
    const sl_raw_aicore *b = &raw->aicore[m->slot[j] - 1];
    if (b->core == core && b->reg == reg) return b;
    j = (j + 1) & (m->cap - 1);
  }
  return NULL;
}

/* ---- tasks ------------------------------------------------------------------------ */

static void fill_task(sl_capture *c, sl_task *t, const sl_raw_aicore *a, sl_str aiv) {
  memset(t, 0, sizeof *t);
  t->extra_first = a->extra.first;
  t->n_extra = (uint8_t)a->extra.n;
  t->task_id = a->token;
  t->func_id = -1;
  t->core_id = (uint32_t)a->core;
  t->core_type = a->core < c->n_core_types ? c->core_types[a->core] : aiv;
  t->start_us = to_us(c, a->start);
  t->end_us = to_us(c, a->end);
  t->receive_us = to_us(c, receive_cycles(a));
  const sl_read_field *r2s = &sl_read_records[SL_READ_AICORE_TASK_RECORD].fields[SL_RF_AICORE_TASK_RECORD_RECEIVE_TO_START_CYCLES];
  if (a->ncols > r2s->column) t->flags |= SL_TASK_HAS_R2S;
}

typedef struct sort_key {
  uint64_t id;
  size_t pos;
} sort_key;

static int cmp_key(const void *x, const void *y) {
  const sort_key *a = x, *b = y;
  if (a->id != b->id) return a->id < b->id ? -1 : 1;
  return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Stable sort by task_id through a (id, position) key array. */
static void sort_tasks(sl_capture *c) {
  size_t n = c->n_tasks;
  int sorted = 1;
  for (size_t i = 1; i < n && sorted; i++)
    if (c->tasks[i].task_id < c->tasks[i - 1].task_id) sorted = 0;
  if (sorted) return;
  sort_key *k = sl_mem_array(NULL, n, sizeof *k);
  for (size_t i = 0; i < n; i++) k[i] = (sort_key){c->tasks[i].task_id, i};
  qsort(k, n, sizeof *k, cmp_key);
  /* permute in place along the cycles of the permutation (no second task array:
  ** at 1M tasks that copy is the reader's peak); k[i].pos = SIZE_MAX marks done */
  for (size_t i = 0; i < n; i++) {
    if (k[i].pos == SIZE_MAX || k[i].pos == i) continue;
    sl_task first = c->tasks[i];
    size_t j = i;
    while (k[j].pos != i) {
      size_t from = k[j].pos;
      c->tasks[j] = c->tasks[from];
      k[j].pos = SIZE_MAX;
      j = from;
    }
    c->tasks[j] = first;
    k[j].pos = SIZE_MAX;
  }
  sl_mem_free(k);
}

static int cmp_drop(const void *x, const void *y) {
  const sl_unmatched *a = x, *b = y;
  return a->count < b->count ? 1 : a->count > b->count ? -1 : 0;
}

/* Keep msg (an sl_mem string) on capture->warnings. */
static void add_warning(sl_capture *c, char *msg) {
  c->warnings = sl_mem_array(c->warnings, c->n_warnings + 1, sizeof *c->warnings);
  c->warnings[c->n_warnings++] = msg;
}

/* The reference's warning text for unmatched scheduler rows (top 3 cores). */
static void unmatched_warning(sl_capture *c) {
  size_t n = c->n_unmatched;
  sl_unmatched *top = sl_mem_array(NULL, n, sizeof *top);
  memcpy(top, c->unmatched, n * sizeof *top);
  /* stable: insertion sort keeps first-drop order among equal counts */
  for (size_t i = 1; i < n; i++) {
    sl_unmatched x = top[i];
    size_t j = i;
    while (j > 0 && cmp_drop(&top[j - 1], &x) > 0) {
      top[j] = top[j - 1];
      j--;
    }
    top[j] = x;
  }
  char list[256] = "";
  size_t len = 0;
  for (size_t i = 0; i < n && i < 3; i++)
    len += (size_t)snprintf(list + len, sizeof list - len, "%score %u: %llu", i ? ", " : "", top[i].core_id,
                            (unsigned long long)top[i].count);
  sl_mem_free(top);
  add_warning(c, sl_mem_printf("%llu aicpu_task(s) had no matching AICore record (top offenders: %s); the "
                                "missing AICore buffer(s) were dropped on rotation. If this recurs, capture with "
                                "`swimlane run --backpressure` or raise the platform's "
                                "aicore_buffers_per_core in schema/platforms.lua.",
                                (unsigned long long)c->unmatched_total, list));
}

static void count_unmatched(sl_capture *c, uint32_t core, size_t *cap) {
  c->unmatched_total++;
  for (size_t i = 0; i < c->n_unmatched; i++)
    if (c->unmatched[i].core_id == core) {
      c->unmatched[i].count++;
      return;
    }
  sl_unmatched *u = sl_array_push(c->unmatched, c->n_unmatched, *cap);
  u->core_id = core;
  u->count = 1;
}

/* ---- the whole finish step ------------------------------------------------------------ */

/* Which of n spans (records [first, first + count) of a flat array) holds record `at`, and
** its index there: span and index are left as they are when none does. */
#define LOCATE(spans, n, at, span, index)                                        \
  for (size_t i_ = 0; i_ < (n); i_++)                                            \
    if ((at) >= (spans)[i_].first && (at) < (spans)[i_].first + (spans)[i_].count) { \
      (span) = i_;                                                               \
      (index) = (at) - (spans)[i_].first;                                        \
    }

/* Orchestrator kinds this build's schema does not know are drawn under their own name (in
** the default colour): say so once, naming the first such record. */
static void warn_unknown_orch_kinds(sl_capture *c) {
  size_t n = 0, first = 0;
  for (size_t i = 0; i < c->n_orch; i++)
    if ((c->orch[i].flags & SL_ORCH_UNKNOWN) && n++ == 0) first = i;
  if (!n) return;
  size_t thread = 0, rec = first;
  LOCATE(c->orch_threads, c->n_orch_threads, first, thread, rec);
  add_warning(c, sl_mem_printf("%zu orchestrator record(s) of kinds this build's schema does not have, first "
                               "'%s' (thread %zu, record %zu): drawn under their own name (schema/phases.lua)",
                               n, sl_str_get(c, c->orch[first].phase), thread, rec));
}

/* Phase kinds this build's schema does not know (a newer writer, or a typo) are kept but
** not drawn: say so once, naming the first such record. */
static void warn_unknown_phases(sl_capture *c) {
  size_t n = 0, first = 0;
  for (size_t i = 0; i < c->n_phases; i++)
    if ((c->phases[i].flags & SL_PH_UNKNOWN) && n++ == 0) first = i;
  if (!n) return;
  size_t stream = 0, rec = first;
  LOCATE(c->streams, c->n_streams, first, stream, rec);
  add_warning(c, sl_mem_printf("%zu scheduler phase record(s) of kinds this build's schema does not "
                               "have, first '%s' (stream %zu, record %zu): not drawn (schema/phases.lua)",
                               n, sl_str_get(c, c->phases[first].phase), stream, rec));
}

/* The level, the clock and the cores every row names. 0 ok, -1 reported. */
static int check_header(sl_raw *raw, sl_capture *c) {
  const char *name = raw->name;
  char lv[64];
  if (!raw->has_level) {
    (void)sl_err_set(raw->err, name, "$.chip_swimlane_level: unsupported chip_swimlane_level: None (expected %s)",
                     sl_levels_accepted(lv, sizeof lv));
    return -1;
  }
  if (raw->level < SL_LEVEL_AICORE_TIMING || raw->level > (int64_t)SL_LEVEL_MAX) {
    (void)sl_err_set(raw->err, name, "$.chip_swimlane_level: unsupported chip_swimlane_level: %lld (expected %s)",
                     (long long)raw->level, sl_levels_accepted(lv, sizeof lv));
    return -1;
  }
  c->level = (int)raw->level;
  if (!raw->has_clock || raw->clock <= 0) {
    if (raw->has_clock)
      (void)sl_err_set(raw->err, name, "$.metadata.clock_freq_hz: metadata missing/zero clock_freq_hz: %lld", (long long)raw->clock);
    else
      (void)sl_err_set(raw->err, name, "$.metadata.clock_freq_hz: metadata missing/zero clock_freq_hz: None");
    return -1;
  }
  c->clock_freq_hz = (uint64_t)raw->clock;
  c->us_per_cycle = 1e6 / (double)c->clock_freq_hz;

  /* every row must name a known core */
  uint64_t known = raw->has_core_types ? c->n_core_types : c->num_cores >= 0 ? (uint64_t)c->num_cores : 0;
  if ((raw->n_aicore || raw->n_stask) && !raw->has_core_types && c->num_cores < 0) {
    (void)sl_err_set(raw->err, name, "$.metadata.core_types: missing (the records name cores but the metadata lists none)");
    return -1;
  }
  for (size_t i = 0; i < raw->n_aicore; i++)
    if (raw->aicore[i].core >= known) {
      (void)sl_err_set(raw->err, name, "$.aicore_tasks[%zu][0]: core %llu is not in metadata.core_types (%llu cores)",
               raw->aicore[i].row, (unsigned long long)raw->aicore[i].core, (unsigned long long)known);
      return -1;
    }
  for (size_t i = 0; i < raw->n_stask; i++)
    if (raw->stask[i].core >= known) {
      (void)sl_err_set(raw->err, name, "$.%s[%zu][0]: core %llu is not in metadata.core_types (%llu cores)", raw->sched_tasks_key,
               raw->stask[i].row, (unsigned long long)raw->stask[i].core, (unsigned long long)known);
      return -1;
    }
  return 0;
}

/* Base time: the minimum strictly-positive timestamp over every stream. */
static uint64_t base_of(const sl_raw *raw, const sl_capture *c) {
  uint64_t base = 0;
  for (size_t i = 0; i < raw->n_aicore; i++) {
    consider(&base, receive_cycles(&raw->aicore[i]));
    consider(&base, raw->aicore[i].end);
  }
  for (size_t i = 0; i < raw->n_stask; i++) {
    consider(&base, raw->stask[i].dispatch);
    consider(&base, raw->stask[i].finish);
  }
  for (size_t i = 0; i < c->n_phases; i++) {
    consider(&base, sl_raw_cycles(&c->phases[i].start_us));
    consider(&base, sl_raw_cycles(&c->phases[i].end_us));
  }
  for (size_t i = 0; i < c->n_orch; i++) {
    consider(&base, sl_raw_cycles(&c->orch[i].start_us));
    consider(&base, sl_raw_cycles(&c->orch[i].end_us));
  }
  for (size_t i = 0; i < c->n_lifecycle; i++)
    for (int k = 0; k < SL_LC_FIELD_COUNT; k++) consider(&base, raw->lc_cycles[i][k]);
  for (size_t i = 0; i < c->n_task_slots; i++) consider(&base, c->task_slots[i].dispatch_cycles);
  /* Positive values outside the reference's set (an AICore start hidden by a large
  ** receive_to_start) must not go below base: clamp base to them too. */
  for (size_t i = 0; i < raw->n_aicore; i++) consider(&base, raw->aicore[i].start);
  return base;
}

/* The tasks: each scheduler row joined onto its AICore row by (core, reg_task_id); at
** level 1 every AICore row. */
static void join_tasks(sl_raw *raw, sl_capture *c, sl_str aiv) {
  if (raw->n_stask == 0 && c->level == SL_LEVEL_AICORE_TIMING) {
    c->tasks = sl_mem_array(NULL, raw->n_aicore ? raw->n_aicore : 1, sizeof *c->tasks);
    for (size_t i = 0; i < raw->n_aicore; i++) fill_task(c, &c->tasks[i], &raw->aicore[i], aiv);
    c->n_tasks = raw->n_aicore;
  } else if (raw->n_stask) {
    join_map m;
    join_build(&m, raw);
    c->tasks = sl_mem_array(NULL, raw->n_stask, sizeof *c->tasks);
    size_t cap_unmatched = 0;
    for (size_t i = 0; i < raw->n_stask; i++) {
      const sl_raw_sched_task *s = &raw->stask[i];
      const sl_raw_aicore *a = join_find(&m, raw, s->core, s->reg);
      if (!a) {
        count_unmatched(c, (uint32_t)s->core, &cap_unmatched);
        continue;
      }
      sl_task *t = &c->tasks[c->n_tasks++];
      fill_task(c, t, a, aiv);
      t->dispatch_us = to_us(c, s->dispatch);
      t->finish_us = to_us(c, s->finish);
      t->member = s->member <= 3 ? (uint8_t)s->member : 0;
      t->flags |= SL_TASK_HAS_SCHED | SL_TASK_HAS_PROPAGATION;
      if (s->extra.n) { /* the scheduler row's extras after the AICore row's */
        sl_extra_span x = sl_extra_join(c, a->extra, s->extra);
        t->extra_first = x.first;
        t->n_extra = (uint8_t)x.n;
      }
    }
    sl_mem_free(m.slot);
    if (c->n_unmatched) unmatched_warning(c);
  }
}

int sl_raw_finish(sl_raw *raw, sl_capture *c) {
  const char *name = raw->name;
  char *note = NULL;
  if (sl_schema_check(name, sl_str_get(c, raw->fingerprint), sl_str_get(c, raw->layout),
                      c->format != SL_FORMAT_PROTOBUF, &note, raw->err) != 0)
    return -1;
  if (note) add_warning(c, note);
  if (check_header(raw, c) != 0) return -1;
  c->base_cycles = base_of(raw, c);
  if (raw->host_mode && sl_host_align(raw, c)) return -1;
  for (size_t i = 0; i < c->n_task_slots; i++) {
    sl_task_slot *s = &c->task_slots[i];
    s->start_us = to_us(c, s->dispatch_cycles);
    s->end_us = to_us(c, s->finish_cycles);
  }

  sl_str aiv = sl_intern_add(&c->strings, "aiv", 3);
  if (c->task_producer == SL_STR_NONE && raw->sched_tasks_key)
    c->task_producer = sl_intern_add(&c->strings, "aicpu", 5);

  join_tasks(raw, c, aiv);
  /* the raw rows are done with: release them before the sort */
  sl_mem_free(raw->aicore);
  sl_mem_free(raw->stask);
  raw->aicore = NULL;
  raw->stask = NULL;
  raw->n_aicore = raw->n_stask = 0;
  sort_tasks(c);

  for (size_t i = 0; i < c->n_phases; i++) {
    c->phases[i].start_us = to_us(c, sl_raw_cycles(&c->phases[i].start_us));
    c->phases[i].end_us = to_us(c, sl_raw_cycles(&c->phases[i].end_us));
  }
  for (size_t i = 0; i < c->n_orch; i++) {
    c->orch[i].start_us = to_us(c, sl_raw_cycles(&c->orch[i].start_us));
    c->orch[i].end_us = to_us(c, sl_raw_cycles(&c->orch[i].end_us));
  }
  for (size_t i = 0; i < c->n_lifecycle; i++)
    for (int k = 0; k < SL_LC_FIELD_COUNT; k++) c->lifecycle[i].us[k] = to_us(c, raw->lc_cycles[i][k]);
  if (raw->host_mode) {
    if (sl_host_finish(raw, c)) return -1;
  } else if (c->n_orch) {
    c->orchestrator_source = sl_intern_add(&c->strings, "aicpu", 5);
  }
  /* growth slack is up to half of each array: give it back (1M-task captures) */
  if (c->n_phases) c->phases = sl_mem_array(c->phases, c->n_phases, sizeof *c->phases);
  if (c->n_orch) c->orch = sl_mem_array(c->orch, c->n_orch, sizeof *c->orch);
  warn_unknown_phases(c);
  warn_unknown_orch_kinds(c);
  return 0;
}

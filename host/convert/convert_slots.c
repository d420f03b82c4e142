/*
** convert_slots.c — the selective task-timing slots a capture carries
** (metadata.task_timing_slots, the windows of set_task_timing_slot(N)): one lane per
** slot in the Task Timing Slots view (names from schema/lanes.lua through the
** rules), and their spans in the summary, the same figures `run` prints.
*/
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>

#include "convert_ctx.h"
#include "sl_lanes.h"
#include "sl_mem.h"

/* dispatch -> finish in us, from the cycles as written (run prints the same), rounded
** to the picosecond like every float arg (no 7.5200000000000005 noise). */
static double span_us(const sl_capture *c, const sl_task_slot *s) {
  return round((double)(s->finish_cycles - s->dispatch_cycles) * c->us_per_cycle * 1e6) / 1e6;
}

void sl_emit_task_slots(sl_ctx *x) {
  const sl_capture *c = x->c;
  if (!c->n_task_slots) return;
  const char *key = sl_lane_table[SL_LANE_TASK_SLOT].key;
  const sl_view *v = sl_rules_view(x->r, SL_VIEW_TIMING);
  int64_t base = sl_lane_table[SL_LANE_TASK_SLOT].tid_base, stride = sl_lane_table[SL_LANE_TASK_SLOT].tid_stride;
  sl_rules_lane_tid(x->r, key, &base, &stride);
  sl_sink_process_name(x->s, v->pid, v->name);
  sl_sink_process_sort(x->s, v->pid, v->sort);
  for (size_t i = 0; i < c->n_task_slots; i++) {
    const sl_task_slot *s = &c->task_slots[i];
    const char *name = sl_rules_lane_name(x->r, key, s->slot);
    if (!name) {
      x->failed = 1;
      return;
    }
    int64_t tid = base + (int64_t)s->slot * stride;
    sl_sink_thread_name(x->s, v->pid, tid, name);
    sl_arg a[] = {SL_ARG_I("slot", s->slot), SL_ARG_U("dispatch_cycles", s->dispatch_cycles),
                  SL_ARG_U("finish_cycles", s->finish_cycles), SL_ARG_D("span_us", span_us(c, s))};
    sl_slice ev = {.pid = v->pid, .tid = tid, .ts = s->start_us, .dur = sl_slice_dur(x, s->start_us, s->end_us), .name = name,
                   .cat = "task_timing", .cname = "generic_work", .args = a, .nargs = 4};
    sl_sink_slice(x->s, &ev);
  }
}

void sl_convert_print_task_slots(FILE *out, const sl_capture *c) {
  if (!c->n_task_slots) return;
  fputs("\n--- Task-timing slots (set_task_timing_slot) ---\n", out);
  for (size_t i = 0; i < c->n_task_slots; i++)
    fprintf(out, "  device_wall.task_slot_%u = %.3f us (dispatch -> finish)\n", (unsigned)c->task_slots[i].slot,
            span_us(c, &c->task_slots[i]));
}

void sl_convert_task_slots_json(cJSON *root, const sl_capture *c) {
  if (!c->n_task_slots) return;
  cJSON *arr = cJSON_AddArrayToObject(root, "task_timing_slots"); /* NULL: cJSON is out of memory */
  if (!arr) sl_mem_fail(0);
  for (size_t i = 0; i < c->n_task_slots; i++) {
    const sl_task_slot *s = &c->task_slots[i];
    cJSON *o = cJSON_CreateObject();
    if (!o) sl_mem_fail(0);
    cJSON_AddItemToArray(arr, o);
    cJSON_AddNumberToObject(o, "slot", s->slot);
    cJSON_AddNumberToObject(o, "dispatch_cycles", (double)s->dispatch_cycles);
    cJSON_AddNumberToObject(o, "finish_cycles", (double)s->finish_cycles);
    cJSON_AddNumberToObject(o, "span_us", span_us(c, s));
  }
}

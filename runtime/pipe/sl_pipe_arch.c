/*
** sl_pipe_arch.c — per-arch cost tables of the pipe model.
**
** The figures are a model, not silicon: they keep the relations that shape a
** swimlane (GM traffic has a long startup, L1->L0 is wide and short, the cube
** eats a tile per few cycles, exp/div are slower than add) and differ between
** a2a3 and a5 the way the two generations differ (a5: wider paths, longer GM
** latency, lower clock), so the two arches give different timelines.
*/
#include <string.h>

#include "sl_lanes.h"
#include "sl_platforms.h"
#include "sl_pipe.h"

const char *const sl_subcore_names[SL_SUBCORE_COUNT] = {"cubecore0", "veccore0", "veccore1"};

/* Pipes present on each sub-core kind (SCALAR and MTE2 exist on both). */
int sl_subcore_has_pipe(sl_subcore core, sl_pipe pipe) {
  switch (pipe) {
  case SL_PIPE_SCALAR:
  case SL_PIPE_MTE2:
  case SL_PIPE_ALL: return 1;
  case SL_PIPE_MTE1:
  case SL_PIPE_CUBE:
  case SL_PIPE_FIXP: return core == SL_SUBCORE_CUBE;
  case SL_PIPE_MTE3:
  case SL_PIPE_VECTOR: return core != SL_SUBCORE_CUBE;
  default: return 0;
  }
}

/*                                   SCALAR    MTE1       MTE2      MTE3      CUBE        VECTOR    FIXP      ALL */
static const sl_pipe_arch arch_a2a3 = {
    "a2a3", 1850, 1, 1, 1,
    {{1, 1}, {24, 256}, {220, 64}, {180, 64}, {16, 2048}, {12, 64}, {40, 128}, {1, 1}}};
static const sl_pipe_arch arch_a5 = {
    "a5", 1650, 1, 1, 0,
    {{1, 2}, {20, 512}, {300, 128}, {240, 128}, {12, 4096}, {10, 128}, {32, 256}, {1, 1}}};

/* A platform (chip or its simulator, schema/platforms.lua) -> its chip's pipe costs. */
const sl_pipe_arch *sl_pipe_arch_find(const char *name) {
  const sl_platform_info *p = name ? sl_platform_by_name(name) : NULL;
  if (!p) return NULL;
  if (!strcmp(p->arch, arch_a2a3.name)) return &arch_a2a3;
  if (!strcmp(p->arch, arch_a5.name)) return &arch_a5;
  return NULL;
}

/* Vector instructions slower than a plain elementwise op: throughput divisor. */
static uint32_t vector_slowdown(const sl_pipe_arch *arch, const char *mnemonic) {
  static const struct { const char *name; uint32_t a2a3, a5; } slow[] = {
      {"VEXP", 4, 2}, {"VDIV", 4, 3}, {"VCMAX", 2, 2}, {"VCADD", 2, 2}};
  if (!mnemonic) return 1;
  for (size_t i = 0; i < sizeof slow / sizeof slow[0]; i++)
    if (!strcmp(mnemonic, slow[i].name)) return arch == &arch_a5 ? slow[i].a5 : slow[i].a2a3;
  return 1;
}

void sl_pipe_cost_of(const sl_pipe_arch *arch, sl_pipe pipe, const char *mnemonic, uint64_t work,
                     uint64_t *occupancy, uint64_t *latency) {
  if ((unsigned)pipe >= SL_PIPE_COUNT) pipe = SL_PIPE_SCALAR;
  const sl_pipe_cost *c = &arch->pipe[pipe];
  uint64_t rate = c->per_cycle ? c->per_cycle : 1;
  if (pipe == SL_PIPE_VECTOR) work *= vector_slowdown(arch, mnemonic);
  uint64_t occ = (work + rate - 1) / rate;
  if (occ == 0) occ = 1;
  *occupancy = occ;
  *latency = occ + c->startup;
}

/* A pipe's lane name: schema data (lanes.lua pipes). */
const char *sl_pipe_lane_name(sl_pipe p) {
  return (unsigned)p < SL_PIPE_LANE_COUNT ? sl_pipe_lane_names[p] : "?";
}

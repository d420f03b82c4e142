/*
** sl_pipe_arch.c — per-arch cost tables of the pipe model.
**
** The figures are a model, not silicon (docs/l0.md, "Cost constants", says
** where each comes from). a2a3 and a5 differ the way the two generations are
** described to differ (a5: wider paths, longer GM latency, lower clock), so the
** two arches give different timelines.
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

/* Cost tables. Every figure is listed in docs/l0.md with where it comes from:
** a public figure (P) or an assumption (A) that keeps the relations which shape
** a swimlane (GM traffic has a long latency and a bounded number of requests in
** flight, L1->L0 is wide and short, the cube eats a tile per few cycles). The
** unit test test_l0_pipe checks that docs/l0.md lists exactly these numbers.
**                       issue latency per_cycle outstanding                                  */
static const sl_pipe_arch arch_a2a3 = {
    .arch = SL_ARCH_A2A3,
    .core_mhz = 1850,  /* A */
    .dispatch = 1,     /* A: one instruction a cycle from the scalar front end */
    .flag_cycles = 1,  /* A */
    .export_idle_subcores = 1, /* the reference's a2a3 camodel exports all three sub-cores */
    .pipe = {
        [SL_PIPE_SCALAR] = {1, 1, 1, 1},     /* A */
        [SL_PIPE_MTE1] = {1, 24, 256, 2},    /* A: L1 -> L0A/L0B, bytes */
        [SL_PIPE_MTE2] = {2, 220, 64, 8},    /* A: GM -> L1/UB, bytes (P bounds the share, docs) */
        [SL_PIPE_MTE3] = {2, 180, 64, 8},    /* A: UB -> GM, bytes */
        [SL_PIPE_CUBE] = {1, 16, 2048, 2},   /* P 4096 fp16 MAC/cycle; fp32 at half rate A */
        [SL_PIPE_VECTOR] = {1, 12, 64, 2},   /* P 2048-bit vector unit = 64 fp32 lanes */
        [SL_PIPE_FIXP] = {1, 40, 128, 4},    /* A: L0C -> GM, bytes */
        [SL_PIPE_ALL] = {1, 1, 1, 1},        /* barrier target only */
    }};
static const sl_pipe_arch arch_a5 = {
    .arch = SL_ARCH_A5,
    .core_mhz = 1650,  /* A */
    .dispatch = 1,     /* A */
    .flag_cycles = 1,  /* A */
    .export_idle_subcores = 0, /* the reference's a5 camodel exports only busy sub-cores */
    .pipe = {
        [SL_PIPE_SCALAR] = {1, 1, 2, 1},     /* A */
        [SL_PIPE_MTE1] = {1, 20, 512, 2},    /* A */
        [SL_PIPE_MTE2] = {2, 300, 128, 16},  /* A */
        [SL_PIPE_MTE3] = {2, 240, 128, 16},  /* A */
        [SL_PIPE_CUBE] = {1, 12, 4096, 2},   /* A */
        [SL_PIPE_VECTOR] = {1, 10, 128, 2},  /* A */
        [SL_PIPE_FIXP] = {1, 32, 256, 4},    /* A */
        [SL_PIPE_ALL] = {1, 1, 1, 1},
    }};

/* A platform (chip or its simulator, schema/platforms.lua) -> its chip's pipe costs. */
const sl_pipe_arch *sl_pipe_arch_find(const char *name) {
  const sl_platform_info *p = name ? sl_platform_by_name(name) : NULL;
  if (!p) return NULL;
  /* by the schema's arch id: a chip generation the schema adds has no cost table yet */
  static const sl_pipe_arch *const by_arch[SL_ARCH_COUNT] = {[SL_ARCH_A2A3] = &arch_a2a3, [SL_ARCH_A5] = &arch_a5};
  return p->arch_id >= 0 && p->arch_id < SL_ARCH_COUNT ? by_arch[p->arch_id] : NULL;
}

const char *sl_pipe_arch_name(const sl_pipe_arch *arch) { return sl_arch_names[arch->arch]; }

/* Vector instructions slower than a plain elementwise op: throughput divisor. */
/* All assumed (A): transcendental and reducing ops take several passes. */
static const struct { const char *name; uint32_t a2a3, a5; } slow[] = {
    {"VEXP", 4, 2}, {"VDIV", 4, 3}, {"VCMAX", 2, 2}, {"VCADD", 2, 2}};

uint32_t sl_pipe_vector_slowdown(const sl_pipe_arch *arch, const char *mnemonic) {
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
  if (pipe == SL_PIPE_VECTOR) work *= sl_pipe_vector_slowdown(arch, mnemonic);
  uint64_t occ = (work + rate - 1) / rate;
  if (occ < c->issue) occ = c->issue;
  if (occ == 0) occ = 1;
  *occupancy = occ;
  *latency = occ + c->latency;
}

/* A pipe's lane name: schema data (lanes.lua pipes). */
const char *sl_pipe_lane_name(sl_pipe p) {
  return (unsigned)p < SL_PIPE_LANE_COUNT ? sl_pipe_lane_names[p] : "?";
}

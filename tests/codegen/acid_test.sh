#!/bin/sh
# acid_test.sh — the design's acid test: add an outer phase on the scheduler lane to
# a copy of the schema, regenerate into a temporary folder, compile the generated C
# (plus protoc-c's output) with a tiny program that writes the new phase, and check
# that the phase reaches the enum, the phase table, its lane, the writer, the JSON
# export and the .proto — with no hand-written C involved.
#   usage: acid_test.sh SWIMLANE_GEN ROOT CC PROTOC_C
set -eu
GEN=$1
ROOT=$2
CC=$3
PROTOC_C=$4
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir -p "$TMP/schema" "$TMP/gen"
cp "$ROOT"/schema/*.lua "$TMP/schema/"
# new phase, first in the list (order in the file does not matter; ids do)
awk '{ print }
/^  phases = \{$/ {
  print "    { id = 4000, name = \"acid_probe\", display = \"acid_probe\", role = \"outer\","
  print "      producers = { \"aicpu\" }, runtimes = { \"tmr\" }, lane = \"sched\", cname = \"olive\","
  print "      tasks_processed = \"entries probed by the acid test\" },"
}' "$ROOT/schema/phases.lua" > "$TMP/schema/phases.lua"
grep -q acid_probe "$TMP/schema/phases.lua" || fail "could not insert the phase into phases.lua"

"$GEN" --quiet --schema "$TMP/schema" --out "$TMP/gen" || fail "generator rejected the new phase"
G=$TMP/gen

grep -q 'SL_PHASE_ACID_PROBE = 4000,' "$G/sl_phases.h" || fail "enum sl_phase_kind lacks SL_PHASE_ACID_PROBE"
grep -q '{.id = 4000, .name = "acid_probe"' "$G/sl_phases.c" || fail "phase table lacks acid_probe"
grep -A2 '.name = "acid_probe"' "$G/sl_phases.c" | grep -q '.lane = "sched", .lane_id = SL_LANE_SCHED' \
  || fail "phase table does not put acid_probe on lane sched"
grep -q 'static inline int sl_write_phase_acid_probe(' "$G/sl_writers.h" || fail "no writer sl_write_phase_acid_probe"
grep -q 'PHASE_ACID_PROBE = 4000;' "$G/swimlane_capture.proto" || fail ".proto lacks PHASE_ACID_PROBE"

cat > "$TMP/main.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "sl_schema.h"

int main(void) {
  sl_sched_phase_record r, back;
  const int16_t depth[3] = {1, -2, 3};
  if (sl_write_phase_acid_probe(SL_LEVEL_SCHED_PHASES - 1, &r, 1, 2, 3, 4, depth, depth) != 0) return 10;
  if (sl_write_phase_acid_probe(SL_LEVEL_SCHED_PHASES, &r, 9007199254740993ull, 9007199254740999ull, 7, 5,
                                depth, NULL) != 1) return 11;
  if (r.kind != SL_PHASE_ACID_PROBE) return 12;
  const sl_phase_info *p = sl_phase_by_name("acid_probe");
  if (!p || p != sl_phase_by_id(4000) || p->role != SL_PHASE_ROLE_OUTER) return 13;
  if (p->lane_id != SL_LANE_SCHED || sl_lane_table[p->lane_id].pid != 2) return 14;
  Swimlane__SchedPhaseRecord m;
  sl_sched_phase_record_to_pb(&r, &m);
  uint8_t buf[256];
  size_t n = swimlane__sched_phase_record__pack(&m, buf);
  Swimlane__SchedPhaseRecord *u = swimlane__sched_phase_record__unpack(NULL, n, buf);
  if (!u || u->kind != SWIMLANE__PHASE_KIND__PHASE_ACID_PROBE) return 15;
  if (sl_sched_phase_record_from_pb(u, &back) != 0 || memcmp(&r, &back, sizeof r) != 0) return 16;
  swimlane__sched_phase_record__free_unpacked(u, NULL);
  sl_json_write_sched_phase(stdout, &r);
  putchar('\n');
  return 0;
}
C
"$PROTOC_C" --c_out="$G" -I"$G" "$G/swimlane_capture.proto" || fail "protoc-c rejected the .proto"
# shellcheck disable=SC2046
"$CC" -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -I"$G" "$TMP/main.c" "$G"/*.c \
  $(pkg-config --cflags --libs libprotobuf-c) -o "$TMP/acid" || fail "generated C does not compile"
OUT=$("$TMP/acid") || fail "acid program exited with $?"
echo "$OUT"
[ "$OUT" = '{"start_cycles": 9007199254740993, "end_cycles": 9007199254740999, "loop_iter": 7, "kind": "acid_probe", "tasks_processed": 5, "task_id": null}' ] \
  || fail "unexpected JSON export of the new phase"
echo "acid test passed: acid_probe is in the enum, table, lane, writer, export and .proto"

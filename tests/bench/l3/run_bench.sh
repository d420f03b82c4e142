#!/usr/bin/env bash
# run_bench.sh — the L3 merge benchmark: `swimlane convert DFX_DIR` on RANKS ranks of
# TASKS tasks each, beside `swimlane convert` of one capture of RANKS x TASKS tasks,
# wall time and peak RSS from /usr/bin/time -v. Never a threshold: it prints figures.
#
#   run_bench.sh BUILD_DIR [TASKS [RANKS [SINGLE_TASKS]]]   (default 100000 8, single = TASKS x RANKS)
#
# SL_BENCH_J1=1 also times the merge reading one rank at a time (-j 1).
# Captures come from gen_capture.py (generated once into $SL_BENCH_DIR/capture_<n>, by
# bench_lib.sh as for the convert benchmark: the default single capture is a real
# RANKS x TASKS = 800k-task one); every rank links the same TASKS capture with an L3 metadata
# head, and a host log per rank gives it a runner_run window that contains it.
set -euo pipefail
BUILD=$(cd "${1:?usage: run_bench.sh BUILD_DIR [TASKS [RANKS [SINGLE_TASKS]]]}" && pwd)
TASKS=${2:-100000}
RANKS=${3:-8}
SINGLE=${4:-$((TASKS * RANKS))}
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
. "$ROOT/tests/bench/bench_lib.sh"
BENCH=${SL_BENCH_DIR:-/tmp/swimlane-bench}
GEN=$(bench_find_gen "$ROOT") || { echo "run_bench.sh: gen_capture.py not found (set SL_GEN_CAPTURE)" >&2; exit 1; }
SW=$BUILD/tools/cli/swimlane
mkdir -p "$BENCH"

measure() { # measure <label> <command...>: wall s, peak RSS MiB, CPU s (bench_lib.sh)
  bench_measure "$1" "$BENCH/l3_$1.log" "${@:2}"
  printf "  %-34s wall %8.2f s   peak RSS %7s MiB   cpu %8s s\n" "$1" "$WALL" "$RSS" "$CPU"
}

capture() { bench_capture_dir "$GEN" "$BENCH" "$1"; }

src=$(capture "$TASKS")
one=$(capture "$SINGLE")
dfx=$BENCH/l3_dfx_${RANKS}x$TASKS
rm -rf "$dfx" && mkdir -p "$dfx"
# one L3 rank capture: the generated one with host_clock_domain_id in its metadata head
sed '0,/"metadata": {/s//"metadata": {\n    "host_clock_domain_id": "bench-host",/' \
  "$src/chip_swimlane_records.json" >"$dfx/rank_capture.json"
printf 'swimlane-hostlog 1 pid=1 role=l3_scheduler host_clock_domain_id=bench-host\n' >"$dfx/host.1.log"
for r in $(seq 0 $((RANKS - 1))); do
  d=$dfx/rank$r/d0
  mkdir -p "$d"
  ln -s "$dfx/rank_capture.json" "$d/chip_swimlane_records.json"
  ln -s "$src/deps.json" "$d/deps.json"
  ln -s "$src/name_map_bench.json" "$d/name_map_bench.json"
  t0=$((1000000000 + r * 1000000))
  {
    printf 'swimlane-hostlog 1 pid=%d role=chip host_clock_domain_id=bench-host\n' $((100 + r))
    printf 'span inv=0 name=chip.run clk=host start_ns=%d dur_ns=30000000000 dispatch_id=1 chip_rank=%d\n' $t0 $r
    printf 'span inv=0 name=chip.run.runner_run clk=host start_ns=%d dur_ns=20000000000\n' $t0
    printf 'span inv=0 name=chip.run.device_wall clk=dev start_ns=0 dur_ns=10000000000\n'
    printf 'span inv=0 name=chip.run.device_wall.sched clk=dev start_ns=0 dur_ns=10000000000\n'
  } >"$dfx/host.$((100 + r)).log"
  printf 'span inv=0 name=node.task clk=host start_ns=%d dur_ns=30000000000 task_slot=%d chip_rank=%d\n' \
    $((t0 - 1000)) $r $r >>"$dfx/host.1.log"
done
echo "L3 merge benchmark: $RANKS ranks x $TASKS tasks vs one capture of $SINGLE tasks"
measure "merge_${RANKS}x${TASKS}_j2" "$SW" convert "$dfx" -o "$dfx/l3_swimlane.json" -j 2
[ "${SL_BENCH_J1:-0}" = 1 ] && measure "merge_${RANKS}x${TASKS}_j1" "$SW" convert "$dfx" -o "$dfx/l3_swimlane.json" -j 1
measure "single_${SINGLE}" "$SW" convert "$one/chip_swimlane_records.json" -o "$BENCH/l3_single_trace.json"
ls -l "$dfx/l3_swimlane.json" "$BENCH/l3_single_trace.json" | awk '{printf "  %-60s %6.0f MiB\n", $9, $5 / 1048576}'
rm -f "$dfx/l3_swimlane.json" "$BENCH/l3_single_trace.json"

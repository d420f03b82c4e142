#!/usr/bin/env bash
# run_bench.sh — the convert benchmark (issue 4): generate level-4 captures of
# 100k and 1M tasks with gen_capture.py, convert them with `swimlane convert`
# (or, while the converter is not built, read them with bench_reader), measure
# wall time and peak RSS with /usr/bin/time -v, and when SL_REFERENCE_CHECKOUT
# points to a checkout of hw-native-sys/simpler, run the reference converter on
# the same input in the same run and print the ratios. Also times
# `swimlane sched-overhead` against the reference's sched_overhead_analysis.
#
#   run_bench.sh BUILD_DIR [N ...]        (default N: 100000 1000000)
#
# Environment: SL_BENCH_DIR (captures + outputs; default /tmp/swimlane-bench),
# SL_GEN_CAPTURE (default <repo>/../shared/tools/gen_capture.py, then
# /work/shared/tools/gen_capture.py), SL_REFERENCE_CHECKOUT, SL_BENCH_NO_OVERHEAD=1.
# Never a pass/fail threshold: it prints figures and ratios (wall, CPU = user +
# system, peak RSS; ratios are reference / ours, so bigger is better for us).
set -euo pipefail
BUILD=$(cd "${1:?usage: run_bench.sh BUILD_DIR [N ...]}" && pwd)
shift
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(100000 1000000)
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
BENCH=${SL_BENCH_DIR:-/tmp/swimlane-bench}
. "$ROOT/tests/bench/bench_lib.sh"
GEN=$(bench_find_gen "$ROOT") || GEN=""
[ -f "$GEN" ] || { echo "run_bench.sh: gen_capture.py not found (set SL_GEN_CAPTURE)" >&2; exit 1; }
SWIMLANE=$BUILD/tools/cli/swimlane
READER=$BUILD/tests/bench/convert/bench_reader
mkdir -p "$BENCH"

have_convert=0
if [ -x "$SWIMLANE" ] && "$SWIMLANE" convert --help >/dev/null 2>&1; then have_convert=1; fi
have_overhead=0
if [ -x "$SWIMLANE" ] && "$SWIMLANE" sched-overhead --help >/dev/null 2>&1; then have_overhead=1; fi
[ "${SL_BENCH_NO_OVERHEAD:-0}" = 1 ] && have_overhead=0

REF_PY=""
[ -n "${SL_REFERENCE_CHECKOUT:-}" ] && REF_PY=$(bench_ref_shim "$SL_REFERENCE_CHECKOUT" "$BENCH")
measure() { bench_measure "$@"; }

printf '\n%-9s %-26s %10s %10s %10s %10s\n' tasks tool "wall (s)" "CPU (s)" "RSS (MB)" "input MB"
declare -A OURS_T OURS_M OURS_C
for n in "${SIZES[@]}"; do
  dir=$(bench_capture_dir "$GEN" "$BENCH" "$n")
  rec=$dir/chip_swimlane_records.json
  in_mb=$(du -cmL "$rec" "$dir/deps.json" | tail -1 | cut -f1)
  if [ $have_convert = 1 ]; then
    # a previous output is removed first: replacing it would add freeing its
    # gigabytes of page cache to the measured run
    rm -f "$dir/ours_trace.json"
    measure "swimlane convert" "$dir/ours.log" "$SWIMLANE" convert "$rec" -o "$dir/ours_trace.json"
    tool="swimlane convert"
  else
    measure "bench_reader" "$dir/ours.log" "$READER" "$rec" "$dir/deps.json" "$dir/name_map_bench.json"
    tool="reader only (no convert)"
  fi
  OURS_T[$n]=$WALL
  OURS_M[$n]=$RSS
  OURS_C[$n]=$CPU
  printf '%-9s %-26s %10.2f %10s %10s %10s\n' "$n" "$tool" "$WALL" "$CPU" "$RSS" "$in_mb"
  ours_t=$WALL ours_m=$RSS ours_c=$CPU
  if [ -n "$REF_PY" ]; then
    rm -f "$dir/ref_trace.json"
    measure "reference converter" "$dir/ref.log" env PYTHONPATH="$REF_PY" \
      python3 -m simpler_setup.tools.swimlane_converter "$rec" -o "$dir/ref_trace.json"
    printf '%-9s %-26s %10.2f %10s %10s %10s\n' "$n" "reference converter" "$WALL" "$CPU" "$RSS" "$in_mb"
    awk -v a="$WALL" -v b="$ours_t" -v c="$RSS" -v d="$ours_m" -v e="$CPU" -v f="$ours_c" \
      'BEGIN { printf "%-9s %-26s %9.1fx %9.1fx %9.1fx\n", "", "ratio (reference / ours)", a / b, e / f, c / d }'
  fi
  if [ $have_overhead = 1 ]; then
    measure "swimlane sched-overhead" "$dir/oh_ours.log" "$SWIMLANE" sched-overhead "$rec"
    printf '%-9s %-26s %10.2f %10s %10s\n' "$n" "swimlane sched-overhead" "$WALL" "$CPU" "$RSS"
    oh_t=$WALL oh_m=$RSS oh_c=$CPU
    if [ -n "$REF_PY" ]; then
      measure "reference sched_overhead" "$dir/oh_ref.log" env PYTHONPATH="$REF_PY" \
        python3 -m simpler_setup.tools.sched_overhead_analysis --chip-swimlane-records-json "$rec"
      printf '%-9s %-26s %10.2f %10s %10s\n' "$n" "reference sched_overhead" "$WALL" "$CPU" "$RSS"
      awk -v a="$WALL" -v b="$oh_t" -v c="$RSS" -v d="$oh_m" -v e="$CPU" -v f="$oh_c" \
        'BEGIN { printf "%-9s %-26s %9.1fx %9.1fx %9.1fx\n", "", "ratio (reference / ours)", a / b, e / f, c / d }'
      # same report apart from the two header lines naming the inputs
      if diff <(sed 1,2d "$dir/oh_ours.log" | grep -v '^swimlane: warning') \
              <(sed 1,2d "$dir/oh_ref.log" | grep -v '^Warning') > "$dir/oh.diff"; then
        echo "          sched-overhead report identical to the reference's"
      else
        echo "          sched-overhead report differs from the reference's: $dir/oh.diff"
      fi
    fi
  fi
done
if [ ${#SIZES[@]} -ge 2 ]; then
  a=${SIZES[0]} b=${SIZES[-1]}
  awk -v ta="${OURS_T[$a]}" -v tb="${OURS_T[$b]}" -v ma="${OURS_M[$a]}" -v mb="${OURS_M[$b]}" -v na="$a" -v nb="$b" \
    -v ca="${OURS_C[$a]}" -v cb="${OURS_C[$b]}" \
    'BEGIN { printf "\nscaling %d -> %d tasks (x%.0f): wall x%.1f, CPU x%.1f, RSS x%.1f\n", na, nb, nb / na, tb / ta, cb / ca, mb / ma }'
fi

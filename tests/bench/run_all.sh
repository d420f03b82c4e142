#!/usr/bin/env bash
# run_all.sh — every benchmark in one run, printed as the README's table (Markdown).
#
#   tests/bench/run_all.sh BUILD [--reference CHECKOUT] [--sizes "100000 1000000"]
#                          [--ref-max N] [--rounds R] [--quick]
#
# For each size it generates a level-4 capture with shared/tools/gen_capture.py
# (kept in $SL_BENCH_DIR, default /tmp/swimlane-bench), then measures side by side
# in the same run: the I/O floor (cat the inputs, write as many bytes as the JSON
# trace sequentially, sync — no formatting), `swimlane convert` to JSON and to
# .pftrace, `swimlane sched-overhead`, and with --reference the reference converter
# and sched_overhead_analysis of a hw-native-sys/simpler checkout (only up to
# --ref-max tasks, default 100000: it needs ~19 GB at 1M). Then the capture overhead
# (bench_capture, level 4 vs level 0, median of R rounds: wall and process CPU), the
# zero-drop record rate (bench_prof_rate) and the device writer cost (bench_prof_writer:
# each generated writer and each hook path against a plain 32-byte store loop, thread CPU).
# Wall time, CPU (user + system) and peak RSS come from /usr/bin/time. Ratios are
# computed from figures of this run only. It never judges: no thresholds.
# --quick (the ctest smoke run) shrinks the runtime benchmarks to a few ms.
set -euo pipefail
ALL_ARGS="$*"
usage() { echo "usage: run_all.sh BUILD [--reference CHECKOUT] [--sizes \"N ...\"] [--ref-max N] [--rounds R] [--quick]" >&2; exit 2; }
[ $# -ge 1 ] || usage
BUILD=$(cd "$1" && pwd) || usage
shift
REF="" SIZES="100000 1000000" REF_MAX=100000 ROUNDS=7 QUICK=0
while [ $# -gt 0 ]; do
  case $1 in
    --reference) REF=${2:?}; shift 2 ;;
    --sizes) SIZES=${2:?}; shift 2 ;;
    --ref-max) REF_MAX=${2:?}; shift 2 ;;
    --rounds) ROUNDS=${2:?}; shift 2 ;;
    --quick) QUICK=1; shift ;;
    *) usage ;;
  esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
. "$HERE/bench_lib.sh"
BENCH=${SL_BENCH_DIR:-/tmp/swimlane-bench}
SWL=$(find "$BUILD" -type f -name swimlane -perm -u+x | head -n 1)
[ -x "$SWL" ] || { echo "run_all.sh: no swimlane binary under $BUILD" >&2; exit 1; }
bench_bin() { find "$BUILD" -type f -name "$1" -perm -u+x | head -n 1; }
GEN=$(bench_find_gen "$ROOT") || { echo "run_all.sh: gen_capture.py not found (set SL_GEN_CAPTURE)" >&2; exit 1; }
REF_PY=""
[ -n "$REF" ] && REF_PY=$(bench_ref_shim "$REF" "$BENCH")
mkdir -p "$BENCH"
W=$BENCH/run_all.$$
mkdir -p "$W"
trap 'rm -rf "$W"' EXIT

row() { printf '| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4"; }
fig() { printf '%.2f s wall (%s s CPU), %s MB' "$1" "$2" "$3"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

echo "Machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
echo "| what | ours | baseline (same run) | ratio |"
echo "|---|---|---|---|"
declare -A T M
first="" last=""
for n in $SIZES; do
  dir=$(bench_capture_dir "$GEN" "$BENCH" "$n")
  rec=$dir/chip_swimlane_records.json
  in_mb=$(du -cmL "$rec" "$dir/deps.json" | tail -1 | cut -f1)
  out=$W/trace.json
  bench_measure "convert $n" "$W/c.log" "$SWL" convert "$rec" -o "$out"
  ct=$WALL cm=$RSS cc=$CPU
  out_bytes=$(stat -c %s "$out")
  rm -f "$out"
  # the I/O floor of the same run: read every input once, write as many bytes, sync
  bench_measure "I/O floor $n" "$W/f.log" sh -c \
    'cat "$1" "$2" > /dev/null && head -c "$3" /dev/zero > "$4" && sync "$4"' sh "$rec" "$dir/deps.json" "$out_bytes" "$W/floor.bin"
  ft=$WALL
  rm -f "$W/floor.bin"
  row "\`convert\` $n tasks, JSON ($in_mb MB in, $((out_bytes / 1000000)) MB out)" "$(fig "$ct" "$cc" "$cm")" \
      "I/O floor: $(printf '%.2f' "$ft") s" "**$(ratio "$ct" "$ft")× the floor**"
  bench_measure "convert proto $n" "$W/p.log" "$SWL" convert "$rec" --format proto -o "$W/trace.pftrace"
  pt=$WALL pm=$RSS pc=$CPU
  rm -f "$W/trace.pftrace"
  bench_measure "sched-overhead $n" "$W/o.log" "$SWL" sched-overhead "$rec"
  ot=$WALL om=$RSS oc=$CPU
  if [ -n "$REF_PY" ] && [ "$n" -le "$REF_MAX" ]; then
    bench_measure "reference converter $n" "$W/rc.log" env PYTHONPATH="$REF_PY" \
      python3 -m simpler_setup.tools.swimlane_converter "$rec" -o "$W/ref.json"
    rm -f "$W/ref.json"
    row "\`convert\` $n tasks vs the reference converter" "$(fig "$ct" "$cc" "$cm")" "$(fig "$WALL" "$CPU" "$RSS")" \
        "**$(ratio "$WALL" "$ct")× faster, 1/$(ratio "$RSS" "$cm") memory**"
  fi
  row "\`convert --format proto\` $n tasks (.pftrace)" "$(fig "$pt" "$pc" "$pm")" "JSON convert: $(printf '%.2f' "$ct") s" "$(ratio "$pt" "$ct")× the JSON time"
  if [ -n "$REF_PY" ] && [ "$n" -le "$REF_MAX" ]; then
    bench_measure "reference sched_overhead $n" "$W/ro.log" env PYTHONPATH="$REF_PY" \
      python3 -m simpler_setup.tools.sched_overhead_analysis --chip-swimlane-records-json "$rec"
    same=differs
    diff -q <(sed 1,2d "$W/o.log" | grep -v '^swimlane: warning') <(sed 1,2d "$W/ro.log" | grep -v '^Warning') >/dev/null && same="identical report"
    row "\`sched-overhead\` $n tasks" "$(fig "$ot" "$oc" "$om")" "reference: $(fig "$WALL" "$CPU" "$RSS") ($same)" \
        "**$(ratio "$WALL" "$ot")× faster, 1/$(ratio "$RSS" "$om") memory**"
  else
    row "\`sched-overhead\` $n tasks" "$(fig "$ot" "$oc" "$om")" "—" "—"
  fi
  T[$n]="$ct $pt $ot" M[$n]="$cm $pm $om"
  [ -z "$first" ] && first=$n
  last=$n
done
if [ "$first" != "$last" ]; then
  read -r a1 a2 a3 <<<"${T[$first]}"; read -r b1 b2 b3 <<<"${T[$last]}"
  read -r m1 m2 m3 <<<"${M[$first]}"; read -r n1 n2 n3 <<<"${M[$last]}"
  row "growth $first → $last tasks (×$((last / first)))" \
      "time: JSON ×$(ratio "$b1" "$a1"), proto ×$(ratio "$b2" "$a2"), sched-overhead ×$(ratio "$b3" "$a3")" \
      "peak RSS: JSON ×$(ratio "$n1" "$m1"), proto ×$(ratio "$n2" "$m2"), sched-overhead ×$(ratio "$n3" "$m3")" "—"
fi

# ---- capture side (runtime + profiler benchmarks) ----
if [ $QUICK = 1 ]; then cap_args=(2000 1) rate_args=(a2a3sim 1 1 20) wr_args=(20000 1)
else cap_args=(100000 "$ROUNDS") rate_args=(a2a3sim 2 3 1000) wr_args=(4000000 "$ROUNDS"); fi
if b=$(bench_bin bench_capture) && [ -n "$b" ]; then
  "$b" "${cap_args[@]}" > "$W/cap.log"
  l0=$(sed -n 's/.*level 0: median \([0-9.]*\) s, min \([0-9.]*\) s.*/\2–\1 s (min–median)/p' "$W/cap.log")
  l4=$(sed -n 's/.*level 4: median \([0-9.]*\) s, min \([0-9.]*\) s.*/\2–\1 s (min–median)/p' "$W/cap.log")
  drops=$(sed -n 's/.*records dropped: \([0-9]*\).*/\1/p' "$W/cap.log")
  r=$(sed -n 's/.*overhead ratio level4\/level0: median \([0-9.]*\), min \([0-9.]*\).*/median \1×, min \2×/p' "$W/cap.log")
  cpu=$(sed -n 's/.*CPU ratio per round: median \([0-9.]*\), range \([0-9.]*-[0-9.]*\).*/CPU median \1× (range \2)/p' "$W/cap.log")
  row "capture overhead: level 4 vs level 0 (\`bench_capture ${cap_args[*]}\`)" "level 4: $l4" "level 0: $l0" "**wall $r**; $cpu; $drops records dropped"
fi
if b=$(bench_bin bench_prof_rate) && [ -n "$b" ]; then
  "$b" "${rate_args[@]}" > "$W/rate.log" 2>&1 # its drop warnings belong in the log
  best=$(sed -n 's/highest sustained zero-drop rate: \([0-9]*\) records\/s.*/\1/p' "$W/rate.log")
  row "highest sustained zero-drop record rate, default pools (\`bench_prof_rate ${rate_args[*]}\`)" \
      "$(awk -v r="$best" 'BEGIN { printf "%.1f M records/s", r / 1e6 }')" "—" "—"
fi
if b=$(bench_bin bench_prof_writer) && [ -n "$b" ]; then
  "$b" "${wr_args[@]}" > "$W/wr.log" 2>&1
  # lines: "  LABEL  NS ns/record  ratio R (range A-B)"; the plain loop is the baseline
  wr_re='^  (.*[^ ]) +([0-9.]+) ns/record +ratio +([0-9.]+) \(range ([0-9.]+-[0-9.]+)\)$'
  base=$(sed -En "s#$wr_re#\1|\2#p" "$W/wr.log" | awk -F'|' '$1 == "plain 32-byte store loop" { print $2 }')
  sed -En "s#$wr_re#\1|\2|\3|\4#p" "$W/wr.log" | grep -v '^plain\|this thread' |
    while IFS='|' read -r label ns r range; do
      row "device writer: $label vs a plain 32-byte store loop (\`bench_prof_writer ${wr_args[*]}\`, thread CPU)" \
          "$ns ns/record" "$base ns/record" "${r}× (median; range $range)"
    done
fi
# ---- clock anchors: what sampling them costs an HBG launch (docs/runtimes.md) ----
# per launch: for each position, first sample's host_before_ns to last sample's host_after_ns
anc_runs=$ROUNDS
[ $QUICK = 1 ] && anc_runs=2
for i in $(seq "$anc_runs"); do
  SWIMLANE_HOME=$ROOT "$SWL" run vector_example --runtime hbg --enable-chip-swimlane 4 --no-convert -q \
    -o "$W/anchors/$i" >/dev/null
done
anc=$(python3 - "$W/anchors" <<'PY'
import glob, json, sys
cost, cold = [], []
for f in glob.glob(sys.argv[1] + "/*/*/chip_swimlane_records.json"):
    s = json.load(open(f))["metadata"]["clock_anchors"]["samples"]
    per = [[x for x in s if x["position"] == p] for p in ("pre_host_orchestration", "post_device_execution")]
    cost.append(sum(p[-1]["host_after_ns"] - p[0]["host_before_ns"] for p in per) / 1000)
    cold.append(per[0][0]["rtt_ns"] / 1000)
print("%.2f–%.2f µs|%.2f–%.2f µs" % (min(cost), max(cost), min(cold), max(cold)))
PY
)
row "clock anchors per HBG launch, 2 × 3 samples (\`run vector_example --runtime hbg --enable-chip-swimlane 4\`, $anc_runs runs)" \
    "${anc%%|*}" "seed's ClockCorrelationProvider: 475–696 µs" "cold first sample's round trip ${anc#*|}; the simulated counter is one \`clock_gettime\`"
echo
echo "Command: tests/bench/run_all.sh $ALL_ARGS (sizes: $SIZES${REF:+, reference: $REF up to $REF_MAX tasks})."
echo "Wall times on a shared machine are noisy: compare the ratios, which come from one run."

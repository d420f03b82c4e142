#!/usr/bin/env bash
# golden.sh check|update SWIMLANE [GOLDEN_DIR] — deterministic (--clock virtual) captures of
# shipped workloads and everything made from them, compared byte for byte with the files
# under GOLDEN_DIR/<workload>/ (check) or written there (update). See docs/testing.md.
set -u
mode=${1:?usage: golden.sh check|update SWIMLANE [GOLDEN_DIR]}
swl=${2:?usage: golden.sh check|update SWIMLANE [GOLDEN_DIR]}
gold=${3:-$(cd "$(dirname "$0")" && pwd)}
case $mode in check | update) ;; *) echo "golden.sh: mode must be check or update" >&2; exit 2 ;; esac
swl=$(cd "$(dirname "$swl")" && pwd)/$(basename "$swl")
sw() { timeout 120 "$swl" "$@"; } # a hung binary must not outlive the test
# every shipped workload (lua/workloads/), bench_flat in its small golden case;
# workload[:case][+runtime|+drops]; the folder is workload[-case][-runtime|-drops]
workloads="mixed_example spmd_multiblock:mix paged_attention vector_example async_dma bench_flat:tiny
  fanout graph_exec hazards hazards:raw hazards:waw hazards:views scopes slowdown_example sync_start spmd_multiblock:aiv
  vector_example+hbg mixed_example+drops"
# +drops: tiny pools (--pool-records 2) and a stalled collector, so every pool drops and the
# exact counts show in both captures, the health line (summary.txt) and the trace's
# "records dropped" counter
tmp=$(mktemp -d "${TMPDIR:-/tmp}/swl_golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
src=$(cd "$gold/../.." && pwd)

folder() { local f=${1/:/-}; echo "${f/+/-}"; } # workload:case+drops -> workload-case-drops

# One workload's files into $tmp/$1: the capture as run writes it, then (run from inside the
# folder, so no path varies) the JSON and Perfetto traces, the converter's summary, the
# trace of the .pb capture (kept only where it differs from the JSON capture's trace) and
# the sched-overhead report.
make_set() {
  local wc=${1%%+*} out=$tmp/$(folder "$1") case=() rt=() extra=()
  local w=${wc%%:*}
  [ "$w" = "$wc" ] || case=(--case "${wc#*:}")
  if [ "$wc" != "$1" ]; then
    if [ "${1#*+}" = drops ]; then extra=(--pool-records 2 --stall-collector); else rt=(--runtime "${1#*+}"); fi
  fi
  mkdir -p "$out/run"
  (cd "$src" && sw run "$w" "${case[@]}" "${rt[@]}" --enable-chip-swimlane 4 --enable-dep-gen --clock virtual "${extra[@]}" -q -o "$out/run") \
    || { echo "golden: run $w failed" >&2; return 1; }
  mv "$out"/run/*/* "$out"/ && rm -rf "$out/run"
  (cd "$out" && {
    sw convert chip_swimlane_records.json -o trace.json >summary.txt 2>&1 &&
      sw convert chip_swimlane_records.json --format proto -o trace.pftrace >/dev/null 2>&1 &&
      sw convert chip_swimlane_records.pb -o trace_from_pb.json >/dev/null 2>pb_convert_stderr.txt &&
      sw convert chip_swimlane_records.json --overhead -o trace_overhead.json >/dev/null 2>&1 &&
      sw sched-overhead chip_swimlane_records.json >sched_overhead.txt 2>&1 &&
      { ! cmp -s trace.json trace_from_pb.json || rm trace_from_pb.json; } # kept only if they differ
  }) || { echo "golden: converting $w failed" >&2; return 1; }
}


rc=0
for wc in $workloads; do
  w=$(folder "$wc")
  make_set "$wc" || { rc=1; continue; }
  if [ "$mode" = update ]; then
    rm -rf "${gold:?}/$w" && mkdir -p "$gold/$w" && cp "$tmp/$w"/* "$gold/$w"/
    echo "golden: wrote $gold/$w ($(ls "$gold/$w" | wc -l) files)"
  elif ! diff -r "$gold/$w" "$tmp/$w" >"$tmp/$w.diff" 2>&1; then
    echo "golden: $w differs from $gold/$w:"
    head -n 40 "$tmp/$w.diff"
    echo "  (intended? regenerate with: tests/golden/update.sh BUILD, and review git diff)"
    rc=1
  fi
done
[ "$mode" = check ] && [ $rc = 0 ] && echo "golden: $workloads match"
exit $rc

#!/bin/sh
# convert_all_workloads.sh — every shipped workload, on both simulated platforms,
# captured at level 4 with deps, converted to JSON and to .pftrace: the two files
# hold the same slices, args, counters, flow arcs (with direction) and process /
# thread order, decoded independently by pftrace_vs_json.py; and the default flow
# placement binds every arrow where --reference-flows does; check-trace has no
# warning on either file. Skipped (77) without
# Python's protobuf runtime.
#   convert_all_workloads.sh SWIMLANE PYTHON PROTO_DIR WORKDIR
set -u
SW=$1 PY=$2 PROTO_DIR=$3 W=$4
HERE=$(dirname "$0")
fail() { echo "FAIL: $*"; exit 1; }
"$PY" -c 'import google.protobuf' 2>/dev/null || { echo "no python3-protobuf: skipped"; exit 77; }
rm -rf "$W" && mkdir -p "$W" || exit 1
n=0
for wl in "${SWIMLANE_HOME:?}"/lua/workloads/*.lua; do
  name=$(basename "$wl" .lua)
  case_opt=""  # a workload's "small" case when it has one (bench_flat's default is 100k tasks)
  grep -q 'name = "small"' "$wl" && case_opt="--case small"
  for plat in a2a3sim a5sim; do
    d="$W/$name-$plat"
    "$SW" run "$name" $case_opt --platform "$plat" --enable-chip-swimlane 4 --enable-dep-gen -q -o "$d" \
      >"$d.log" 2>&1 || fail "run $name $plat: $(tail -n 2 "$d.log")"
    rec=$(find "$d" -name chip_swimlane_records.json | head -n 1)
    [ -n "$rec" ] || fail "$name $plat: no capture"
    "$SW" convert "$rec" -o "$d.json" >/dev/null 2>&1 || fail "convert $name $plat"
    "$SW" convert "$rec" --format proto -o "$d.pftrace" >/dev/null 2>&1 \
      || fail "convert --format proto $name $plat"
    out=$("$PY" "$HERE/pftrace_vs_json.py" "$PROTO_DIR" "$d.json" "$d.pftrace") \
      || fail "$name $plat: $out"
    echo "$name $plat: $out"
    for f in "$d.json" "$d.pftrace"; do
      "$SW" check-trace "$f" >"$d.ct" 2>&1 || fail "check-trace $f: $(head -n 3 "$d.ct")"
      grep -q "warning" "$d.ct" && fail "check-trace warns on $f: $(grep -m 3 warning "$d.ct")"
    done
    # flow_place moves flow events for DevTools; Perfetto must bind them as before
    "$SW" convert "$rec" --reference-flows -o "$d.ref.json" >/dev/null 2>&1 \
      || fail "convert --reference-flows $name $plat"
    out=$("$PY" "$HERE/pftrace_vs_json.py" --json-pair "$d.json" "$d.ref.json") \
      || fail "$name $plat: flow placement changed Perfetto's picture: $out"
    case $out in *" 0 flow arcs"*) fail "$name $plat: no flow arcs to compare" ;; esac
    n=$((n + 1))
  done
done
[ "$n" -ge 8 ] || fail "only $n workload/platform pairs compared"
echo "convert_all_workloads: $n pairs the same in JSON and .pftrace"

#!/usr/bin/env bash
# compare_outputs.sh — prove a converter change keeps its outputs byte for byte:
# convert every capture given (default: every chip_swimlane_records.{json,pb} under
# tests/ plus the 30k-task capture gen_capture.py makes) with an OLD and a NEW
# swimlane binary, as JSON and as .pftrace, plus the sched-overhead report, and cmp
# each pair. Prints one line per output and exits 1 on the first difference.
#
#   compare_outputs.sh OLD_SWIMLANE NEW_SWIMLANE [CAPTURE ...]
#
# A capture's deps.json and name_map*.json are taken from beside it, as convert does.
set -uo pipefail
OLD=${1:?usage: compare_outputs.sh OLD_SWIMLANE NEW_SWIMLANE [CAPTURE ...]}
NEW=${2:?usage: compare_outputs.sh OLD_SWIMLANE NEW_SWIMLANE [CAPTURE ...]}
shift 2
# absolute: each command runs inside the scratch folder
OLD=$(realpath "$OLD") NEW=$(realpath "$NEW")
[ -x "$OLD" ] && [ -x "$NEW" ] || { echo "compare_outputs.sh: $OLD or $NEW is not an executable" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/swl-compare.XXXXXX")
trap 'rm -rf "$W"' EXIT
CAPS=("$@")
if [ ${#CAPS[@]} -eq 0 ]; then
  mapfile -t CAPS < <(find "$ROOT/tests" -name 'chip_swimlane_records.json' -o -name 'chip_swimlane_records.pb' | sort)
fi
fail=0 n=0
# run BIN OUT ARGS...: stdout + stderr + exit status of one command, then its output file
run() {
  local bin=$1 out=$2
  shift 2
  (cd "$W" && "$bin" "$@" > "$out.log" 2>&1; echo "exit $?" >> "$out.log")
  sed -i "s#$bin#SWL#g" "$out.log"
}
for cap in "${CAPS[@]}"; do
  for kind in json proto overhead; do
    args=(convert "$cap")
    case $kind in
      json) args+=(-o "$W/out.json") ;;
      proto) args+=(--format proto -o "$W/out.pftrace") ;;
      overhead) args=(sched-overhead "$cap") ;;
    esac
    rm -f "$W"/out.*
    run "$OLD" "$W/old" "${args[@]}"
    [ -f "$W/out.json" ] && mv "$W/out.json" "$W/old.out"
    [ -f "$W/out.pftrace" ] && mv "$W/out.pftrace" "$W/old.out"
    run "$NEW" "$W/new" "${args[@]}"
    [ -f "$W/out.json" ] && mv "$W/out.json" "$W/new.out"
    [ -f "$W/out.pftrace" ] && mv "$W/out.pftrace" "$W/new.out"
    n=$((n + 1))
    if ! cmp -s "$W/old.log" "$W/new.log"; then
      echo "DIFFERS (messages) $kind $cap"; diff "$W/old.log" "$W/new.log" | head -5; fail=1
    elif [ -f "$W/old.out" ] || [ -f "$W/new.out" ]; then
      if cmp -s "$W/old.out" "$W/new.out"; then
        echo "same  $kind $(stat -c %s "$W/new.out") bytes  $cap"
      else
        echo "DIFFERS $kind $cap"; fail=1
      fi
    else
      echo "same  $kind (report only)  $cap"
    fi
    rm -f "$W"/old.out "$W"/new.out
  done
done
echo "$n outputs compared: $([ $fail = 0 ] && echo all byte-identical || echo DIFFERENCES)"
exit $fail

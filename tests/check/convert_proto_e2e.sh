#!/bin/sh
# convert_proto_e2e.sh — `swimlane convert` on the reference capture in both
# formats: each passes check-trace, and the .pftrace holds the JSON's content.
#   convert_proto_e2e.sh SWIMLANE TEST_SINK_PROTO WORKDIR
set -u
SW=$1 CMP=$2 W=$3
FIX=${SL_FIXTURES:?}/anchor-l4
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$W" && mkdir -p "$W" || exit 1
cp "$FIX/chip_swimlane_records.json" "$FIX/deps.json" "$FIX/name_map_sample.json" "$W/" || exit 1
"$SW" convert "$W/chip_swimlane_records.json" -o "$W/t.json" >/dev/null || fail "convert json"
"$SW" convert "$W/chip_swimlane_records.json" --format proto -o "$W/t.pftrace" >/dev/null \
  || fail "convert --format proto"
"$SW" check-trace "$W/t.json" >/dev/null || fail "check-trace json"
out=$("$SW" check-trace --strict "$W/t.pftrace") || fail "check-trace --strict pftrace"
echo "$out" | grep -q "^OK: .* 45 slices, 58 flows" || fail "pftrace totals: $out"
"$CMP" "$W/t.json" "$W/t.pftrace" || fail "content differs"
echo "convert_proto_e2e: all passed"

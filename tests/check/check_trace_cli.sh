#!/bin/sh
# check_trace_cli.sh — `swimlane check-trace` end to end: the reference fixture,
# broken and truncated files, both formats, exit codes and message format.
#   check_trace_cli.sh SWIMLANE JSON2PROTO WORKDIR
set -u
SW=$1 J2P=$2 W=$3
FIX=${SL_FIXTURES:?}/anchor-l4/expected_l4.trace.json
fail() { echo "FAIL: $*"; [ -f "$W/err" ] && sed 's/^/  stderr: /' "$W/err"; exit 1; }
rm -rf "$W" && mkdir -p "$W" || exit 1

# The reference output passes with 80 warnings: flow ends not at their slice's
# start and flows with cat "flow", which Chrome DevTools does not bind.
out=$("$SW" check-trace "$FIX" 2>"$W/err") || fail "fixture: exit $?"
[ "$out" = "OK: 192 events, 45 slices, 58 flows, 20 tracks" ] || fail "fixture OK line: $out"
grep -q "^swimlane: $FIX: 80 warnings" "$W/err" || fail "fixture: 80 warnings expected"
grep -q "in Perfetto but not in Chrome DevTools" "$W/err" || fail "fixture: DevTools binding rule"
"$SW" check-trace --strict "$FIX" >/dev/null 2>"$W/err" && fail "--strict should fail on warnings"
grep -q "^swimlane: $FIX: 80 problems$" "$W/err" || fail "--strict: problem count line"

# A broken trace: one line per problem naming file and event, a count, exit 1.
printf '{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1}]}' > "$W/bad.json"
"$SW" check-trace "$W/bad.json" >"$W/out" 2>"$W/err"; rc=$?
[ $rc -eq 1 ] || fail "bad trace: exit $rc"
grep -qx "swimlane: $W/bad.json: event #0 (pid 1 tid 1 ts 1.000): 'X' event without dur: Perfetto drops it" "$W/err" \
  || fail "bad trace: problem line"
grep -qx "swimlane: $W/bad.json: 1 problem" "$W/err" || fail "bad trace: count line"
[ -s "$W/out" ] && fail "bad trace: nothing on stdout expected"

# Problem lines are capped.
printf '{"traceEvents":[' > "$W/many.json"
i=0; while [ $i -lt 80 ]; do printf '{"ph":"X","name":"a","pid":1,"tid":0,"ts":%d,"dur":1},' $((i * 2)) >> "$W/many.json"; i=$((i + 1)); done
printf '{}]}' >> "$W/many.json"
"$SW" check-trace "$W/many.json" 2>"$W/err" >/dev/null && fail "many: should fail"
[ "$(grep -c 'tid 0 is read as' "$W/err")" -eq 50 ] || fail "many: 50 lines expected"
grep -q "and 30 more problems" "$W/err" || fail "many: 'and 30 more'"
"$SW" check-trace --max-problems 3 "$W/many.json" 2>"$W/err" >/dev/null
[ "$(grep -c 'tid 0 is read as' "$W/err")" -eq 3 ] || fail "--max-problems 3"

# Unreadable input: clear error naming the file, exit 1.
head -c 20000 "$FIX" > "$W/trunc.json"
"$SW" check-trace "$W/trunc.json" >/dev/null 2>"$W/err" && fail "truncated json accepted"
grep -q "^swimlane: $W/trunc.json: truncated JSON" "$W/err" || fail "truncated json message"
printf 'garbage' > "$W/garbage.txt"
"$SW" check-trace "$W/garbage.txt" >/dev/null 2>"$W/err" && fail "garbage accepted"
grep -q "^swimlane: $W/garbage.txt: neither a JSON trace" "$W/err" || fail "garbage message"
"$SW" check-trace "$W/missing.json" >/dev/null 2>"$W/err" && fail "missing file accepted"
grep -q "^swimlane: $W/missing.json: cannot open" "$W/err" || fail "missing message"

# Protobuf: the fixture through the protobuf backend passes; format by content too.
"$J2P" "$FIX" "$W/fixture.pftrace" || fail "json2proto"
out=$("$SW" check-trace "$W/fixture.pftrace" 2>"$W/err") || fail "pftrace: exit $?"
[ "$out" = "OK: 102 events, 45 slices, 58 flows, 25 tracks" ] || fail "pftrace OK line: $out"
[ -s "$W/err" ] && fail "pftrace: no warnings expected"
cp "$W/fixture.pftrace" "$W/fixture.bin"
"$SW" check-trace "$W/fixture.bin" >/dev/null 2>&1 || fail "proto not detected by content"
"$SW" check-trace --format json "$W/fixture.pftrace" >/dev/null 2>&1 && fail "--format json on proto"
head -c 3000 "$W/fixture.pftrace" > "$W/trunc.pftrace"
"$SW" check-trace "$W/trunc.pftrace" >/dev/null 2>"$W/err" && fail "truncated proto accepted"
grep -q "^swimlane: $W/trunc.pftrace: offset [0-9]*: truncated" "$W/err" || fail "truncated proto message"

# Usage errors: exit 2.
"$SW" check-trace >/dev/null 2>&1; [ $? -eq 2 ] || fail "no FILE: exit 2"
"$SW" check-trace --format xml "$FIX" >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad --format: exit 2"
"$SW" check-trace --help | grep -q "usage: swimlane check-trace" || fail "--help"
echo "check_trace_cli: all passed"

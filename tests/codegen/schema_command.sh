#!/bin/sh
# schema_command.sh — `swimlane schema` prints the schema summary; bad options fail.
#   usage: schema_command.sh SWIMLANE
set -eu
SW=$1
OUT=$("$SW" schema)
fail() { echo "FAIL: $*" >&2; echo "$OUT" >&2; exit 1; }
echo "$OUT" | grep -Eq '^  sl_sched_phase_record +64 +8 ' || fail "records table lacks the 64-byte phase record"
echo "$OUT" | grep -Eq '^ +6 resolve +inner ' || fail "phases table lacks resolve (id 6, inner)"
echo "$OUT" | grep -Eq '^  arena_h2d +arena_h2d +host_h2d ' || fail "host upload phases lack arena_h2d"
echo "$OUT" | grep -Eq '^ +0 orch_submit +submit +orch .*\(default\)' || fail "orchestrator phases lack the default orch_submit (id 0)"
echo "$OUT" | grep -Eq '^  renamed \(orch_aliases\): ' || fail "orchestrator phases lack their renames line"
echo "$OUT" | grep -Eq '^  retired \(orch_retired; read, never drawn\): ' || fail "orchestrator phases lack their retired line"
echo "$OUT" | grep -q 'pid 4 Worker View' || fail "views lack Worker View"
echo "$OUT" | grep -Eq '^  4 orch_phases' || fail "levels lack level 4"
echo "$OUT" | grep -Eq '^  a5sim +1000000000 Hz' || fail "platforms lack a5sim"
if "$SW" schema --bogus 2>/dev/null; then fail "an unknown option must fail"; fi
echo "swimlane schema OK"

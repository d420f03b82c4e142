#!/bin/sh
# `swimlane run` timing without a capture: task-timing slots at level 0 (one round and
# min/median/max over rounds), the timing summary, and the device log with the
# orchestrator's run window and g_orch_*_cycle counters in the output folder.
set -eu
sw=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$sw" run vector_example >"$out/one.txt"
grep -Eq '^swimlane: device_wall\.task_slot_0 = [0-9]+\.[0-9]{3} us \(dispatch -> finish\)$' "$out/one.txt" || fail "slot 0 span"
grep -Eq '^swimlane: device_wall\.task_slot_1 = ' "$out/one.txt" || fail "slot 1 span"
grep -q 'task_slot_2' "$out/one.txt" && fail "an untagged slot was printed"
grep -Eq '^swimlane: timing: host wall [0-9.]+ us, device wall [0-9.]+ us \(orchestration [0-9.]+ us, scheduling [0-9.]+ us\)$' \
  "$out/one.txt" || fail "timing summary"
grep -Eq '^swimlane: timing: 6 submits, sub-steps sync .* fanin [0-9.]+ us; [a-z]+ dominates' "$out/one.txt" || fail "sub-steps"
# host_build_graph: host orchestration, the upload steps (host_phases names), no AICPU sub-steps
"$sw" run vector_example --runtime hbg >"$out/hbg.txt"
grep -Eq '^swimlane: timing: host wall [0-9.]+ us, host orchestration [0-9.]+ us, upload [0-9.]+ us, device wall [0-9.]+ us \(scheduling [0-9.]+ us\)$' \
  "$out/hbg.txt" || fail "hbg timing summary"
grep -Eq '^swimlane: timing: 6 submits on the host, upload steps arena_h2d [0-9.]+ us, graph_upload [0-9.]+ us, tensor_h2d [0-9.]+ us; [a-z0-9_]+ dominates the upload' \
  "$out/hbg.txt" || fail "hbg upload steps"
grep -q 'sub-steps sync' "$out/hbg.txt" && fail "an hbg run printed the AICPU orchestrator's sub-steps"
"$sw" run vector_example --rounds 3 >"$out/three.txt"
grep -Eq '^swimlane: device_wall\.task_slot_0: min [0-9.]+ us, median [0-9.]+ us, max [0-9.]+ us over 3 rounds$' \
  "$out/three.txt" || fail "slot over rounds"
[ "$(grep -c '^swimlane: timing: round [123]: host wall' "$out/three.txt")" = 3 ] || fail "per-round timing"
# min <= median <= max
awk '/task_slot_0: min/ { if (!($4 <= $7 && $7 <= $10)) exit 1 }' "$out/three.txt" || fail "min/median/max order"
"$sw" run vector_example --enable-chip-swimlane 1 -o "$out/cap" -q
log=$(ls "$out"/cap/*/device_log.txt)
grep -Eq '^\[INFO\] orch_start=[0-9]+ orch_end=[0-9]+ orch_cost=[0-9]+$' "$log" || fail "run window line"
for k in sync alloc params lookup insert fanin; do
  grep -Eq "^\[INFO\] g_orch_${k}_cycle=[0-9]+$" "$log" || fail "g_orch_${k}_cycle"
done
# orch_cost = orch_end - orch_start, and the sub-steps fit inside it
awk -F'[= ]' '/orch_start=/ { if ($7 != $5 - $3) exit 1; cost = $7 }
              /g_orch_/ { sum += $3 } END { if (sum > cost) exit 1 }' "$log" || fail "orch_cost arithmetic"
echo "run timing: OK"

#!/bin/sh
# mix_labels_e2e.sh — every member of a MIX task keeps its own function: a real
# mixed_example capture (MIX tasks with one AIC + two AIV kernels) converted with
# deps.json gives, per function id, exactly as many summary rows and Worker View
# bars as deps.json's kernel_ids say ran it (counted here from deps.json, not from
# the converter); without deps.json a 2-AIV MIX task is not labelled SPMD.
#   mix_labels_e2e.sh SWIMLANE PYTHON WORKDIR
set -u
SW=$1 PY=$2 W=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$W" && mkdir -p "$W" || exit 1
"$SW" run mixed_example --enable-chip-swimlane 4 --enable-dep-gen -q -o "$W/run" >"$W/run.log" 2>&1 \
  || fail "run: $(tail -n 2 "$W/run.log")"
rec=$(find "$W/run" -name chip_swimlane_records.json | head -n 1)
dir=$(dirname "$rec")
"$SW" convert "$rec" -o "$W/t.json" >"$W/sum.txt" 2>&1 || fail "convert"
"$PY" - "$dir/deps.json" "$dir"/name_map_*.json "$W/t.json" "$W/sum.txt" <<'PYEOF' || exit 1
import collections, json, re, sys
deps, nmap, trace, summary = sys.argv[1:5]
names = {int(k): v for k, v in json.load(open(nmap))["callable_id_to_name"].items()}
want = collections.Counter()
for t in json.load(open(deps))["tasks"]:
    for k in t["kernel_ids"]:
        if k >= 0:
            want[k] += t.get("block_num", 1)
rows = {}
for line in open(summary):
    m = re.match(r"^(-?\d+)\s+(\S+)\s+(\d+)\s", line)
    if m:
        rows[int(m.group(1))] = (m.group(2), int(m.group(3)))
bars = collections.Counter()
for e in json.load(open(trace))["traceEvents"]:
    if e.get("ph") == "X" and e.get("cat") == "event" and "(" in e["name"]:
        bars[e["name"].split("(")[0]] += 1
bad = []
for k, n in sorted(want.items()):
    if rows.get(k) != (names[k], n):
        bad.append("func %d: summary row %s, want (%s, %d)" % (k, rows.get(k), names[k], n))
    # Worker View and Scheduler View each draw one bar per member
    if bars[names[k]] != 2 * n:
        bad.append("%s: %d bars, want %d" % (names[k], bars[names[k]], 2 * n))
if len(want) < 5:
    bad.append("mixed_example should run 5 functions, deps.json has %d" % len(want))
if bad:
    print("FAIL: " + "; ".join(bad))
    sys.exit(1)
print("every member labelled: " + ", ".join("%s x%d" % (names[k], n) for k, n in sorted(want.items())))
PYEOF
# without deps.json: no function names, and the MIX tasks are not SPMD
mkdir -p "$W/nodeps" && cp "$rec" "$W/nodeps/" || exit 1
"$SW" convert "$W/nodeps/chip_swimlane_records.json" -o "$W/nodeps.json" >/dev/null 2>&1 \
  || fail "convert without deps"
grep -q '"task(t4)"' "$W/nodeps.json" || fail "no task(t4) bar without deps"
grep -q '_spmd(' "$W/nodeps.json" && fail "a MIX task is labelled SPMD without deps.json"
echo "mix_labels_e2e: all passed"

#!/bin/sh
# cli_ux.sh — the CLI as a user scripts it: --version, run --list, run converts a
# completed capture, safe outputs (stdout, symlinks, FIFOs, full disk, closed
# stdout, bad paths checked first, SIGTERM removes temporaries), and an install
# to a prefix that works from another folder without SWIMLANE_HOME.
#   cli_ux.sh SWIMLANE BUILD_DIR WORKDIR
set -u
SW=$1 BUILD=$2 W=$3
fail() { echo "FAIL: $*"; [ -f "$W/err" ] && sed 's/^/  stderr: /' "$W/err"; exit 1; }
rm -rf "$W" && mkdir -p "$W" || exit 1
cd "$W" || exit 1

# --version: version and the 16-hex-digit schema fingerprint
v=$("$SW" --version) || fail "--version exit"
echo "$v" | grep -Eq '^swimlane [0-9]+\.[0-9]+\.[0-9]+ \(schema [0-9a-f]{16}\)$' || fail "--version: $v"

# run --list: every shipped workload with its cases, and the simulated platforms
"$SW" run --list >list 2>"$W/err" || fail "run --list exit"
grep -Eq '^  mixed_example +MixedExample: Case1 \[a2a3sim a5sim\]$' list || fail "run --list: mixed_example line"
grep -Eq '^  spmd_multiblock +SpmdMultiblock: aiv \[.*\], mix \[' list || fail "run --list: spmd cases"
grep -Eq '^  a5sim +simulated a5, 1000 MHz' list || fail "run --list: a5sim"
grep -q '^  a2a3 ' list && fail "run --list lists a platform run does not accept"

# run converts a completed capture: trace + summary beside the records
"$SW" run mixed_example --enable-chip-swimlane --enable-dep-gen -o runs >out 2>"$W/err" || fail "run exit"
cp "$W/err" run.err
d=$(ls -d runs/MixedExample_Case1_*/) || fail "no run folder"
[ -s "${d}merged_swimlane.json" ] || fail "run did not convert"
grep -q "Conversion complete" out || fail "run: no conversion report"
grep -q "^Func_ID" out || fail "run: no per-function summary"
"$SW" check-trace "${d}merged_swimlane.json" >/dev/null 2>"$W/err" || fail "auto-converted trace fails check-trace"
"$SW" run mixed_example --enable-chip-swimlane --no-convert -o runs2 -q 2>"$W/err" || fail "--no-convert exit"
ls runs2/*/chip_swimlane_records.json >/dev/null || fail "--no-convert: no capture"
ls runs2/*/merged_swimlane.json >/dev/null 2>&1 && fail "--no-convert converted"
rec=${d}chip_swimlane_records.json

# the health line, on every conversion
grep -q "^swimlane: $rec: capture complete: aicore_task 13 of 13, aicpu_task 13 of 13, sched_phase [0-9]* of [0-9]*, orch_phase [0-9]* of [0-9]*$" run.err \
  || fail "run's conversion: health line"
"$SW" convert "${SL_FIXTURES:?}/anchor-l4/chip_swimlane_records.json" -o fixture.json -q 2>"$W/err" || fail "fixture convert"
grep -q "capture health unknown (no metadata.capture" "$W/err" || fail "fixture: health unknown line"
# two sibling name maps: neither is guessed, the command says so once on stderr
mkdir -p twomaps && cp "$SL_FIXTURES/anchor-l4/chip_swimlane_records.json" twomaps/ &&
  echo '{}' >twomaps/name_map_a.json && echo '{}' >twomaps/name_map_b.json
"$SW" convert twomaps/chip_swimlane_records.json -o twomaps/t.json -q 2>"$W/err" || fail "two name maps: convert failed"
[ "$(grep -c "^swimlane: warning: multiple sibling name maps found next to twomaps/chip_swimlane_records.json: name_map_a.json, name_map_b.json; pass --func-names explicitly.$" "$W/err")" = 1 ] ||
  fail "two name maps: no single warning"
# SL_TIMING=1 (docs/convert.md): one CPU-time line per stage, in order, and none without it
SL_TIMING=1 "$SW" convert "$SL_FIXTURES/anchor-l4/chip_swimlane_records.json" -o fixture.json -q 2>"$W/err" || fail "SL_TIMING convert"
[ "$(sed -n 's/^timing: \([a-z]*\) .* s cpu$/\1/p' "$W/err" | tr '\n' ' ')" = "read deps emit finish " ] || fail "SL_TIMING stages"
"$SW" convert "$SL_FIXTURES/anchor-l4/chip_swimlane_records.json" -o fixture.json -q 2>"$W/err.plain" || fail "fixture convert"
! grep -q "^timing:" "$W/err.plain" || fail "timing lines without SL_TIMING"

# SIGTERM during run: the capture is kept, marked truncated, not converted, and
# converting it says so
cat >forever.lua <<LUA
local w = dofile(os.getenv('SWIMLANE_HOME') .. '/lua/workloads/bench_flat.lua')
w.orchestrate = function(rt, p)
  local c = rt:tensor{ shape = { 1 }, dtype = 'int64' }
  rt:submit{ func = 0, args = { c }, scalars = { 1 } }
  io.open('$W/runs3/.started', 'w'):close()
  while true do rt:submit{ func = 0, args = { c }, scalars = { 1 } } end
end
w.check = nil
return w
LUA
"$SW" run ./forever.lua --enable-chip-swimlane -o runs3 -q 2>/dev/null &
pid=$!
i=0
while [ $i -lt 400 ] && [ ! -e runs3/.started ]; do sleep 0.05; i=$((i + 1)); done
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 143 ] || fail "run SIGTERM: exit $rc, want 143"
t=$(ls runs3/*/chip_swimlane_records.json) || fail "run SIGTERM: no capture"
ls runs3/*/merged_swimlane.json >/dev/null 2>&1 && fail "an interrupted run was converted"
"$SW" convert "$t" -o truncated.json -q 2>"$W/err" || fail "convert of a truncated capture"
grep -q "^swimlane: $t: capture TRUNCATED (interrupted): aicore_task " "$W/err" || fail "truncated health line"

# --summary-json: the table's rows as JSON (names and counts agree; the averages are
# timings of this run, rounded in the table, so only their presence is checked)
"$SW" convert "$rec" -o sum.json --summary-json summary.json >table.txt 2>"$W/err" || fail "--summary-json exit"
rows=$(awk '/^Func_ID/{on=1; getline; next} on && /^-/{exit} on {print $2, $3}' table.txt)
[ -n "$rows" ] || fail "--summary-json: no table rows"
flat=$(tr -d ' \t\n' <summary.json)
echo "$rows" | while read -r name count; do
  echo "$flat" | grep -q "\"name\":\"$name\",\"count\":$count,\"avg_exec_us\":[0-9.e+-]*,\"avg_latency_us\":[0-9]" \
    || { echo "FAIL: --summary-json lacks $name $count"; exit 1; }
done || exit 1
echo "$flat" | grep -q '"total":{"count":13,' || fail "--summary-json: total count"
"$SW" convert "$rec" -o sum2.json --summary-json nowhere/s.json -q 2>"$W/err" && fail "--summary-json bad path accepted"
[ -e sum2.json ] && fail "--summary-json bad path: the trace was written anyway"

# sched-overhead --summary-json: the report's numbers (the hop count agrees with Part 6)
"$SW" sched-overhead "$rec" --summary-json oh.json >oh.txt 2>"$W/err" || fail "sched-overhead --summary-json exit"
hops=$(sed -n 's/.*Makespan-determining path: \([0-9]*\) hops.*/\1/p' oh.txt)
[ -n "$hops" ] || fail "sched-overhead: no Part 6 hops"
flat=$(tr -d ' \t\n' <oh.json)
echo "$flat" | grep -q "\"critical_path\":{\"found\":true,\"hops\":$hops," || fail "sched-overhead JSON: hops"
echo "$flat" | grep -q '"head_overhead":{"count":13,' || fail "sched-overhead JSON: head count"

# -o -: the trace on stdout, the report on stderr, no file named '-'
"$SW" convert "$rec" -o - >stdout.json 2>"$W/err" || fail "-o - exit"
cmp -s stdout.json "${d}merged_swimlane.json" || fail "-o - differs from the file output"
[ -e ./- ] || [ -e "${d}-" ] && fail "-o - wrote a file named '-'"
grep -q "Conversion complete" "$W/err" || fail "-o -: report not on stderr"

# a symlink is kept, its target replaced
echo old >target.json && ln -s target.json link.json
"$SW" convert "$rec" -o link.json -q 2>"$W/err" || fail "symlink exit"
[ -L link.json ] || fail "the symlink was replaced"
cmp -s target.json "${d}merged_swimlane.json" || fail "symlink target not written"

# a FIFO is written through, not replaced
mkfifo fifo && { cat fifo >from_fifo & }
"$SW" convert "$rec" -o fifo -q 2>"$W/err" || fail "fifo exit"
wait
[ -p fifo ] || fail "the FIFO was replaced"
cmp -s from_fifo "${d}merged_swimlane.json" || fail "FIFO reader got something else"

# failed writes exit 1 with a message
"$SW" convert "$rec" -o /dev/full -q 2>"$W/err" && fail "/dev/full accepted"
grep -q "^swimlane: /dev/full: write failed: No space left on device$" "$W/err" || fail "/dev/full message"
"$SW" sched-overhead "$rec" >/dev/full 2>"$W/err" && fail "sched-overhead > /dev/full exit 0"
grep -q "^swimlane: <stdout>: write failed" "$W/err" || fail "stdout full message"
"$SW" convert "$rec" -o closed.json >&- 2>"$W/err" && fail "closed stdout exit 0"
grep -q "^swimlane: <stdout>: write failed: standard output is closed$" "$W/err" || fail "closed stdout message"

# output paths are checked before the work starts (no capture is even read)
"$SW" convert no_such_capture.json -o nowhere/x.json 2>"$W/err" && fail "bad input accepted"
"$SW" convert "$rec" -o nowhere/x.json -q 2>"$W/err" && fail "missing folder accepted"
grep -q "^swimlane: nowhere/x.json: cannot create the output: folder nowhere does not exist$" "$W/err" \
  || fail "missing folder message"
"$SW" convert "$rec" -o runs -q 2>"$W/err" && fail "a folder as output accepted"

# the wrong kind of file is named, with what to run instead
"$SW" convert "${d}merged_swimlane.json" -o wrong.json 2>"$W/err" && fail "convert took a trace"
grep -q "^swimlane: ${d}merged_swimlane.json: this is a Perfetto trace (what convert writes), not a capture: .*swimlane check-trace" "$W/err" \
  || fail "convert of a trace: message"
"$SW" convert "${d}deps.json" -o wrong.json 2>"$W/err" && fail "convert took deps.json"
grep -q "this is a dep_gen deps.json, not a capture: pass it as --deps-json" "$W/err" || fail "convert of deps.json: message"
printf '{"traceEvents":[{"name":"process_name","ph":"M","pid":"core0.cubecore0","args":{"name":"c"}}]}' >insight.json
"$SW" convert insight.json -o wrong.json 2>"$W/err" && fail "convert took an Insight trace"
grep -q "this is an Insight trace" "$W/err" || fail "convert of an Insight trace: message"
"$SW" check-trace "$rec" 2>"$W/err" && fail "check-trace took a capture"
grep -q "^swimlane: $rec: this is a chip swimlane capture, not a trace: convert it first" "$W/err" \
  || fail "check-trace of a capture: message"
"$SW" check-trace "${d}chip_swimlane_records.pb" 2>"$W/err" && fail "check-trace took a .pb capture"
grep -q "this is a chip swimlane capture" "$W/err" || fail "check-trace of a .pb capture: message"
[ -e wrong.json ] && fail "a refused input left an output"

# user Lua runs sandboxed: no programs, no writes outside the output folder, a
# runaway loop ends with an error naming the limit
printf 'os.execute("touch pwned")\nreturn require("convert.default")\n' >exec.lua
"$SW" convert "$rec" --rules exec.lua -o sb.json -q 2>"$W/err" && fail "os.execute allowed"
grep -q "exec.lua:1: attempt to call a nil value (field 'execute')" "$W/err" || fail "os.execute message"
[ -e pwned ] && fail "os.execute ran"
printf 'assert(io.popen == nil and package.loadlib == nil and os.remove == nil)\n
local f, err = io.open("%s/escaped.txt", "w")\nassert(not f and err:find("outside the output folder"), err)\n
assert(not load(string.dump(function() end)))\nlocal R = require("convert.default")\n
local name = R.func_name\nR.func_name = function(...)\n
  local g = assert(io.open("inside.txt", "w")); g:write("ok"); g:close(); return name(...)\nend\nreturn R\n' "$W/runs" >confine.lua
"$SW" convert "$rec" --rules confine.lua -o sb.json -q 2>"$W/err" || fail "sandbox rules"
[ -e runs/escaped.txt ] && fail "a rules script wrote outside the output folder"
[ "$(cat inside.txt)" = ok ] || fail "a rules script could not write beside its output"
printf 'while true do end\n' >loop.lua
SWIMLANE_LUA_LIMIT=5000000 "$SW" convert "$rec" --rules loop.lua -o sb.json -q 2>"$W/err" && fail "runaway loop accepted"
grep -q "^swimlane: loop.lua:1: script exceeded the instruction limit (5000000 instructions; a runaway loop?)$" "$W/err" \
  || fail "runaway rules message"
printf 'while true do end\n' >loop_wl.lua
SWIMLANE_LUA_LIMIT=5000000 "$SW" run ./loop_wl.lua 2>"$W/err" && fail "runaway workload accepted"
grep -q "loop_wl.lua:1: script exceeded the instruction limit" "$W/err" || fail "runaway workload message"
# an orchestration that fails part-way: exit 1, and the capture of what ran says truncated
cat >half_wl.lua <<'EOF_WL'
return {
  class = "HalfExample",
  incores = { { func_id = 0, name = "kernel_add", source = "runtime/kernels/add.c", core_type = "aiv",
                signature = { "in", "in", "out" } } },
  cases = { { name = "default", platforms = { "a2a3sim" }, params = {} } },
  orchestrate = function(rt, p)
    local a, c = rt:tensor{ shape = { 4, 128 } }, rt:tensor{ shape = { 4, 128 } }
    rt:submit{ func = 0, args = { a, a, c } }
    error("stopped half-way")
  end,
}
EOF_WL
"$SW" run ./half_wl.lua --enable-chip-swimlane 4 -q -o halfruns 2>"$W/err" && fail "a failing orchestration exits 0"
grep -q "half_wl.lua:[0-9]*: stopped half-way" "$W/err" || fail "failing orchestration: no error"
grep -q "the capture holds what ran before the error and is marked truncated" "$W/err" || fail "failing orchestration: no truncation note"
t=$(ls halfruns/*/chip_swimlane_records.json) || fail "failing orchestration: no capture"
grep -q '"capture": {"truncated": true' "$t" || fail "failing orchestration: the capture does not say truncated"

# SIGTERM during convert removes the temporary (the rules spin so that the kill
# lands while the trace is being written)
cat >spin.lua <<'LUA'
local R = require("convert.default")
R.func_name = function() while true do end end
return R
LUA
"$SW" convert "$rec" --rules spin.lua -o killed.json -q 2>/dev/null &
pid=$!
i=0
while [ $i -lt 200 ] && ! ls killed.json.tmp.* >/dev/null 2>&1; do sleep 0.05; i=$((i + 1)); done
ls killed.json.tmp.* >/dev/null 2>&1 || { kill $pid; fail "no temporary appeared"; }
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 143 ] || fail "SIGTERM: exit $rc, want 143"
ls killed.json* >/dev/null 2>&1 && fail "SIGTERM left $(ls killed.json*)"

# SIGTERM during run's own conversion: the capture is complete and stays, the trace's
# temporary goes. A copy of the data folder whose default rules spin keeps the conversion
# busy until the kill.
mkdir -p home4 && cp -r "$SWIMLANE_HOME/lua" "$SWIMLANE_HOME/schema" home4/
sed -i 's/^return R$/R.func_name = function() while true do end end\nreturn R/' home4/lua/convert/default.lua
grep -q 'while true do end' home4/lua/convert/default.lua || fail "home4: default rules not spun"
SWIMLANE_HOME="$W/home4" "$SW" run mixed_example --enable-chip-swimlane -o runs4 -q 2>/dev/null &
pid=$!
i=0
while [ $i -lt 400 ] && ! ls runs4/*/merged_swimlane.json.tmp.* >/dev/null 2>&1; do sleep 0.05; i=$((i + 1)); done
ls runs4/*/merged_swimlane.json.tmp.* >/dev/null 2>&1 || { kill $pid; fail "run: no trace temporary appeared"; }
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 143 ] || fail "run SIGTERM in convert: exit $rc, want 143"
ls runs4/*/merged_swimlane.json* >/dev/null 2>&1 && fail "run SIGTERM in convert left $(ls runs4/*/merged_swimlane.json*)"
t=$(ls runs4/*/chip_swimlane_records.json) || fail "run SIGTERM in convert: the capture is gone"
"$SW" convert "$t" -o conv4.json >/dev/null 2>"$W/err" || fail "convert of the capture of an interrupted conversion"
grep -q "^swimlane: $t: capture complete: " "$W/err" || fail "run SIGTERM in convert: the capture is not complete"

# the progress line: on a terminal only (script(1) gives convert a TTY). The spinning
# rules keep the conversion busy writing until the Lua budget ends it.
if command -v script >/dev/null 2>&1; then
  SWIMLANE_PROGRESS_AFTER_MS=0 SWIMLANE_LUA_LIMIT=200000000 \
    script -qfec "'$SW' convert '$rec' --rules spin.lua -o prog.json" /dev/null >tty.out 2>&1
  grep -q "swimlane: convert: writing the trace: [0-9]* events, [0-9.]* MB written" tty.out ||
    fail "no progress line (events, MB) on a TTY"
  # the events count grows as the trace is written: two redraws never show fewer events
  tr '\r' '\n' <tty.out | sed -n 's/.*writing the trace: \([0-9]*\) events.*/\1/p' | sort -n -c ||
    fail "the progress line's event count went backwards"
  SWIMLANE_PROGRESS_AFTER_MS=0 SWIMLANE_LUA_LIMIT=200000000 \
    "$SW" convert "$rec" --rules spin.lua -o prog.json 2>notty.err >/dev/null
  grep -q "swimlane: convert: writing" notty.err && fail "a progress line without a TTY"
  grep -q "script exceeded the instruction limit" notty.err || fail "spin rules: no limit error"
  # run's progress line: tasks completed of submitted, on a TTY only, not with -q (a run long
  # enough, 100k tasks, that the ticker thread is sure to draw before the run ends)
  SWIMLANE_PROGRESS_AFTER_MS=0 script -qfec "'$SW' run bench_flat --case default --no-convert -o runprog" /dev/null >runtty.out 2>&1
  grep -q "swimlane: run: [0-9]* of [0-9]* tasks completed" runtty.out || fail "run: no progress line on a TTY"
  SWIMLANE_PROGRESS_AFTER_MS=0 script -qfec "'$SW' run mixed_example --no-convert -q -o runprog" /dev/null >runq.out 2>&1
  grep -q "swimlane: run:" runq.out && fail "run -q: a progress line"
  SWIMLANE_PROGRESS_AFTER_MS=0 "$SW" run mixed_example --no-convert -o runprog >/dev/null 2>runnotty.err
  grep -q "swimlane: run:" runnotty.err && fail "run: a progress line without a TTY"
  # the read's line: drawn while a long read runs (40 MB of a key the reader skips), erased
  # before anything else is printed (the capture health line comes right after the read)
  python3 - "$rec" padded.json <<'PY'
import sys
src = open(sys.argv[1]).read().lstrip()
open(sys.argv[2], "w").write('{"x_padding": [' + ",".join(["0"] * 20000000) + "], " + src[1:])
PY
  SWIMLANE_PROGRESS_AFTER_MS=100 script -qfec "'$SW' convert padded.json -o padded_trace.json" /dev/null >readtty.out 2>&1
  grep -q "swimlane: convert: reading [0-9.]* / [0-9.]* MB" readtty.out || fail "no progress line while reading"
  tr '\r' '\n' <readtty.out | grep -q "convert: reading [^ ]* / .*swimlane: " &&
    fail "a line was printed onto the read's progress line"
  rm -f padded.json padded_trace.json
fi

# install to a prefix: the installed binary runs from elsewhere without SWIMLANE_HOME
cmake --install "$BUILD" --prefix "$W/prefix" >install.log 2>&1 || fail "cmake --install: $(tail -n 1 install.log)"
for f in bin/swimlane share/swimlane/schema/records.lua share/swimlane/lua/convert/default.lua \
         share/swimlane/lua/workloads/mixed_example.lua share/swimlane/codegen/main.lua \
         share/man/man1/swimlane.1; do
  [ -f "$W/prefix/$f" ] || fail "install: no $f"
done
mkdir elsewhere && cd elsewhere || exit 1
env -u SWIMLANE_HOME "$W/prefix/bin/swimlane" run vector_example --enable-chip-swimlane -q 2>"$W/err" \
  || fail "installed run"
ls outputs/*/merged_swimlane.json >/dev/null 2>&1 || fail "installed run left no trace"
env -u SWIMLANE_HOME "$W/prefix/bin/swimlane" schema >schema.txt 2>"$W/err" || fail "installed schema"
grep -q "a2a3sim" schema.txt || fail "installed schema: no platforms in the summary"
# the installed l0 builds its replay from the prefix alone: moved prefix, no build-tree path
mv "$W/prefix" "$W/moved"
env -u SWIMLANE_HOME "$W/moved/bin/swimlane" l0 --test mixed_example --func-id 0,1,2 >l0.out 2>&1 ||
  fail "installed l0: $(tail -n 3 l0.out)"
ws=$(ls -d outputs/l0_swimlane_*/ | head -n 1)
[ -n "$ws" ] && ls "$ws"*_trace.json >/dev/null 2>&1 || fail "installed l0 left no trace"
grep -q "$W/moved/share/swimlane/l0/lib/libsl_pipe.a" "$ws/CMakeLists.txt" ||
  fail "installed l0: the replay does not link the installed libraries"
grep -q -e "$BUILD/runtime" -e "$BUILD/generated" "$ws/CMakeLists.txt" && fail "installed l0: the replay still names the build tree"
grep -q "self-check OK" l0.out || fail "installed l0: no self-check"
echo "ok"

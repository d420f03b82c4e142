#!/bin/sh
# sandbox_e2e.sh — user Lua of each kind runs sandboxed (issue 12, deliverable 6): a
# conversion rules script (convert --rules), a workload (run FILE) and an L0 template
# (lua/l0/ under a SWIMLANE_HOME of the user's) each try to run a program (os.execute,
# io.popen), write outside the output folder, reach the unconfined io.open through the
# debug library, and loop forever. Each attempt must fail with its own message, exit 1,
# and leave no file behind.
#   sandbox_e2e.sh SWIMLANE WORKDIR
set -u
SW=$1 W=$2
fail() { echo "FAIL: $*"; [ -f "$W/err" ] && sed 's/^/  stderr: /' "$W/err"; exit 1; }
rm -rf "$W" && mkdir -p "$W/outside" "$W/out" || exit 1
cd "$W" || exit 1
: "${SWIMLANE_HOME:?}"

# a capture for the rules
"$SW" run mixed_example --enable-chip-swimlane --no-convert -q -o runs 2>"$W/err" || fail "run for a capture"
rec=$(ls runs/*/chip_swimlane_records.json) || fail "no capture"

# a SWIMLANE_HOME of the user's: the shipped one with lua/l0 copied (templates replaced below)
mkdir -p home/lua
for f in "$SWIMLANE_HOME"/*; do [ "$(basename "$f")" = lua ] || ln -s "$f" home/; done
for f in "$SWIMLANE_HOME"/lua/*; do [ "$(basename "$f")" = l0 ] || ln -s "$f" home/lua/; done
cp -r "$SWIMLANE_HOME/lua/l0" home/lua/l0 && cp home/lua/l0/cmakelists.lua cmakelists.orig || exit 1

# attack NAME: the first line of every script (the rest makes it a valid script of its kind)
attack() {
  case $1 in
  execute) echo "os.execute('touch $W/pwned')" ;;
  popen) echo "io.popen('touch $W/pwned')" ;;
  write) echo "local f = assert(io.open('$W/outside/pwned', 'w')) f:write('x') f:close()" ;;
  debug) echo "local _, raw = debug.getupvalue(io.open, 1) raw('$W/outside/pwned', 'w'):close()" ;;
  loop) echo "while true do end" ;;
  esac
}
want() {
  case $1 in
  execute) echo "attempt to call a nil value (field 'execute')" ;;
  popen) echo "attempt to call a nil value (field 'popen')" ;;
  write) echo "$W/outside/pwned: writing files outside the output folder is not allowed here" ;;
  debug) echo "attempt to call a nil value (field 'getupvalue')" ;;
  loop) echo "script exceeded the instruction limit (5000000 instructions; a runaway loop?)" ;;
  esac
}

for a in execute popen write debug loop; do
  # conversion rules
  { attack $a; echo 'return require("convert.default")'; } >"rules_$a.lua"
  SWIMLANE_LUA_LIMIT=5000000 "$SW" convert "$rec" --rules "rules_$a.lua" -o out/trace.json -q 2>"$W/err"
  rc=$?
  [ $rc -eq 1 ] || fail "rules $a: exit $rc, want 1"
  grep -qF "rules_$a.lua:1: $(want $a)" "$W/err" || fail "rules $a: message, want 'rules_$a.lua:1: $(want $a)'"
  [ -e out/trace.json ] && fail "rules $a: a trace was written"

  # workload
  { attack $a; echo "return dofile('$SWIMLANE_HOME/lua/workloads/mixed_example.lua')"; } >"wl_$a.lua"
  SWIMLANE_LUA_LIMIT=5000000 "$SW" run "./wl_$a.lua" --enable-chip-swimlane -q -o out 2>"$W/err"
  rc=$?
  [ $rc -eq 1 ] || fail "workload $a: exit $rc, want 1"
  grep -qF "wl_$a.lua:1: $(want $a)" "$W/err" || fail "workload $a: message, want 'wl_$a.lua:1: $(want $a)'"

  # L0 template (the CMakeLists.txt template of the replay workspace)
  { attack $a; cat cmakelists.orig; } >home/lua/l0/cmakelists.lua
  SWIMLANE_HOME=$W/home SWIMLANE_LUA_LIMIT=5000000 "$SW" l0 --test mixed_example --func-id 0,1,2 \
    >"$W/l0.out" 2>"$W/err"
  rc=$?
  [ $rc -eq 1 ] || fail "template $a: exit $rc, want 1"
  grep -qF "home/lua/l0/cmakelists.lua:1: $(want $a)" "$W/err" \
    || fail "template $a: message, want 'home/lua/l0/cmakelists.lua:1: $(want $a)'"
  ls -d outputs/l0_swimlane_* >/dev/null 2>&1 && fail "template $a: a replay workspace was written"

  [ -e pwned ] && fail "$a: a program ran"
  [ -e outside/pwned ] && fail "$a: a file was written outside the output folder"
done
echo "ok"

#!/bin/sh
# devtools_engine.sh — the JSON traces the e2e tests wrote, loaded by Chrome
# DevTools' own trace engine (devtools_engine.mjs): every X event is in its
# thread's tree, nothing dropped, no slice before the trace bounds DevTools shows
# (ts 0), and traces converted with deps.json bind flow arrows (the --reference-flows copies are checked for slices only: DevTools binds
# none of the reference's arrows). Skipped (77) without node or the engine
# (tools/dev.sh installs both).
#   devtools_engine.sh ENGINE_DIR DIR...
set -u
ENGINE=$1; shift
HERE=$(dirname "$0")
command -v node >/dev/null 2>&1 || { echo "no node: skipped"; exit 77; }
[ -d "$ENGINE/node_modules/@paulirish/trace_engine" ] || { echo "no trace engine in $ENGINE: skipped"; exit 77; }
with=$(find "$@" -maxdepth 1 -name '*.json' ! -name '*.ref.json' | sort)
ref=$(find "$@" -maxdepth 1 -name '*.ref.json' | sort)
[ -n "$with" ] || { echo "FAIL: no traces in $*"; exit 1; }
# shellcheck disable=SC2086
node "$HERE/devtools_engine.mjs" "$ENGINE" --flows --bounds $with || { echo "FAIL: DevTools engine"; exit 1; }
if [ -n "$ref" ]; then
  # shellcheck disable=SC2086
  node "$HERE/devtools_engine.mjs" "$ENGINE" $ref || { echo "FAIL: DevTools engine (reference placement)"; exit 1; }
fi
echo "devtools_engine: $(echo "$with" "$ref" | wc -w) traces loaded"

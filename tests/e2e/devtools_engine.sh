#!/bin/sh
# devtools_engine.sh — the JSON traces the e2e tests wrote, loaded by Chrome
# DevTools' own trace engine (devtools_engine.mjs): every X event is in its
# thread's tree, nothing dropped, no slice before the trace bounds DevTools shows
# (ts 0), and traces converted with deps.json bind flow arrows (the --reference-flows copies are checked for slices only: DevTools binds
# none of the reference's arrows). Skipped (77) without node or the engine
# (tools/dev.sh installs both).
# After --kept, folders of traces the end-to-end tests kept (tests/common/sl_test_keep.c,
# any depth): each loaded with --bounds, and flow arrows required where it has deps.
#   devtools_engine.sh ENGINE_DIR DIR... [--kept KEPT_DIR...]
set -u
ENGINE=$1; shift
HERE=$(dirname "$0")
dirs=""; kept_dirs=""
for a in "$@"; do
  case $a in
    --kept) kept_dirs=" " ;;
    *) if [ -n "$kept_dirs" ]; then kept_dirs="$kept_dirs $a"; else dirs="$dirs $a"; fi ;;
  esac
done
# shellcheck disable=SC2086
set -- $dirs
# A file the engine finds fault with is copied to SL_ENGINE_FAILED_DIR (the e2e traces are
# real-clock captures: the next run will not write it again) and, with SL_SWIMLANE, shown
# to check-trace, whose rules name the shape (e.g. "Chrome DevTools drops slice …").
engine() {
  out=$(node "$HERE/devtools_engine.mjs" "$ENGINE" "$@"); rc=$?
  printf '%s\n' "$out"
  [ $rc -eq 0 ] && return 0
  printf '%s\n' "$out" | sed -n 's/.*"path":"\([^"]*\)".*/\1/p' | while read -r f; do
    if [ -n "${SL_ENGINE_FAILED_DIR:-}" ] && mkdir -p "$SL_ENGINE_FAILED_DIR" && cp "$f" "$SL_ENGINE_FAILED_DIR/"; then
      echo "kept $SL_ENGINE_FAILED_DIR/$(basename "$f")"
    fi
    [ -n "${SL_SWIMLANE:-}" ] && { echo "check-trace $(basename "$f"):"; "$SL_SWIMLANE" check-trace "$f" 2>&1 | head -n 6; }
  done
  return 1
}
command -v node >/dev/null 2>&1 || { echo "no node: skipped"; exit 77; }
[ -d "$ENGINE/node_modules/@paulirish/trace_engine" ] || { echo "no trace engine in $ENGINE: skipped"; exit 77; }
with=$(find "$@" -maxdepth 1 -name '*.json' ! -name '*.ref.json' | sort)
ref=$(find "$@" -maxdepth 1 -name '*.ref.json' | sort)
[ -n "$with" ] || { echo "FAIL: no traces in $*"; exit 1; }
# shellcheck disable=SC2086
engine --flows --bounds $with || { echo "FAIL: DevTools engine"; exit 1; }
if [ -n "$ref" ]; then
  # shellcheck disable=SC2086
  engine $ref || { echo "FAIL: DevTools engine (reference placement)"; exit 1; }
fi
kept=""
if [ -n "$kept_dirs" ]; then
  # the L0 Insight-format copies (<label>_trace.json, simulator/trace.json) only parse:
  # Insight draws a pipe's overlapping requests on one lane; <label>_trace_perfetto.json
  # is the copy for DevTools and Perfetto and gets every check
  # shellcheck disable=SC2086
  kept=$(find $kept_dirs -name '*.json' ! -name '*_trace.json' 2>/dev/null | sort)
  # shellcheck disable=SC2086
  insight=$(find $kept_dirs -name '*_trace.json' 2>/dev/null | sort)
  [ -n "$kept" ] || { echo "FAIL: no kept traces in$kept_dirs (the e2e tests keep them: fixture sl_e2e_traces)"; exit 1; }
  # shellcheck disable=SC2086
  engine --flows-if-deps --bounds $kept || { echo "FAIL: DevTools engine (kept e2e traces)"; exit 1; }
  if [ -n "$insight" ]; then
    # shellcheck disable=SC2086
    engine --parse-only $insight || { echo "FAIL: DevTools engine (L0 Insight traces)"; exit 1; }
  fi
  kept="$kept $insight"
  for d in $kept_dirs; do echo "  kept from $(basename "$d"): $(find "$d" -name '*.json' | wc -l) per test:" \
    "$(for t in "$d"/*/; do printf '%s %s, ' "$(basename "$t")" "$(find "$t" -name '*.json' | wc -l)"; done)"; done
fi
echo "devtools_engine: $(echo "$with" "$ref" "$kept" | wc -w) traces loaded"

#!/bin/sh
# schema_not_read.sh SWIMLANE ROOT — convert takes the schema compiled into the binary: with a
# SWIMLANE_HOME that has the rules (lua/) and no schema/ at all, the committed captures (JSON
# and .pb) convert to byte-identical traces, and (when strace is installed) no schema source
# file is opened.
set -eu
SW=$1 ROOT=$2
T=$(mktemp -d /tmp/sl_no_schema_XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/home" && cp -r "$ROOT/lua" "$T/home/"
F=$ROOT/tests/fixtures/evolution/chip_swimlane_records
for fmt in json pb; do
  SWIMLANE_HOME=$ROOT "$SW" convert "$F.$fmt" -o "$T/with.$fmt.json" >/dev/null 2>&1
  SWIMLANE_HOME=$T/home "$SW" convert "$F.$fmt" -o "$T/without.$fmt.json" >/dev/null 2>"$T/err" \
    || { echo "FAIL: $fmt: convert needs schema/: $(tail -n 3 "$T/err")"; exit 1; }
  grep -q '"name": *"dispatch(' "$T/without.$fmt.json" || grep -q '"name":"dispatch(' "$T/without.$fmt.json" \
    || { echo "FAIL: $fmt: the trace without schema/ has no dispatch(...) slice"; exit 1; }
  cmp -s "$T/with.$fmt.json" "$T/without.$fmt.json" || { echo "FAIL: $fmt: the trace differs without schema/"; exit 1; }
done
if command -v strace >/dev/null 2>&1; then
  # (its exit status is not the point: LeakSanitizer, for one, refuses to run under ptrace)
  SWIMLANE_HOME=$ROOT strace -f -e trace=open,openat -o "$T/opens" "$SW" convert "$F.json" -o "$T/traced.json" \
    >/dev/null 2>&1 || true
  if ! grep -q 'chip_swimlane_records.json' "$T/opens"; then
    echo "strace cannot trace here: the open check is skipped (the traces above are the proof)"
  elif grep -E 'schema/[a-z_]+\.lua' "$T/opens" >/dev/null; then
    echo "FAIL: convert opens schema source files: $(grep -oE '[^"]*schema/[a-z_]+\.lua' "$T/opens" | sort -u | tr '\n' ' ')"
    exit 1
  fi
fi
echo "schema not read at run time: ok"

#!/bin/sh
# generated_gate.sh CC GATE_INCLUDE_DIR GENERATED_DIR — the version gate: hand-written code
# compiled against a generated/ of another generator format stops with "#error ... regenerate";
# against the real generated/ it compiles.
set -eu
CC=$1 INC=$2 GEN=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include "sl_generated_gate.h"\nint main(void) { return 0; }\n' >"$tmp/gate.c"
"$CC" -fsyntax-only -I"$INC" -I"$GEN" "$tmp/gate.c" || { echo "FAIL: the real generated/ does not pass the gate"; exit 1; }
mkdir "$tmp/stale"
sed 's/#define SL_GENERATED_FORMAT [0-9]*/#define SL_GENERATED_FORMAT 1/' "$GEN/sl_fingerprint.h" >"$tmp/stale/sl_fingerprint.h"
if "$CC" -fsyntax-only -I"$INC" -I"$tmp/stale" "$tmp/gate.c" 2>"$tmp/err"; then
  echo "FAIL: a stale generated/ (format 1) compiled"; exit 1
fi
grep -q 'generated/ is stale: regenerate' "$tmp/err" || { echo "FAIL: no '#error regenerate':"; cat "$tmp/err"; exit 1; }
echo "generated gate: ok"

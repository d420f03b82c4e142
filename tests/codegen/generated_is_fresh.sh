#!/bin/sh
# generated_is_fresh.sh — fail when generated/ differs from a fresh run of the
# generator over schema/ (someone edited the schema without `--target regen`, or
# edited generated/ by hand). Also checks that two runs are byte-identical.
#   usage: generated_is_fresh.sh SWIMLANE_GEN ROOT
set -eu
GEN=$1
ROOT=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

"$GEN" --quiet --schema "$ROOT/schema" --out "$TMP/a"
"$GEN" --quiet --schema "$ROOT/schema" --out "$TMP/b"
if ! diff -r "$TMP/a" "$TMP/b" >/dev/null; then
  echo "FAIL: two generator runs differ (output is not deterministic)" >&2
  diff -r "$TMP/a" "$TMP/b" | head -20 >&2
  exit 1
fi
stale=0
for f in "$TMP"/a/* ; do
  name=$(basename "$f")
  if ! cmp -s "$f" "$ROOT/generated/$name"; then
    echo "stale: generated/$name" >&2
    diff -u "$ROOT/generated/$name" "$f" 2>&1 | head -20 >&2 || true
    stale=1
  fi
done
if [ $stale -ne 0 ]; then
  echo "FAIL: generated/ is stale: run 'cmake --build <build> --target regen' and commit the result" >&2
  exit 1
fi
# files the generator does not produce are not compiled (generated/CMakeLists.txt lists
# the sources), so they are reported but do not fail the test
for f in "$ROOT"/generated/*; do
  [ -e "$TMP/a/$(basename "$f")" ] || echo "note: generated/$(basename "$f") is not produced by the generator" >&2
done
# the generator's own check mode agrees, and notices a hand edit
"$GEN" --quiet --check --schema "$ROOT/schema" --out "$ROOT/generated"
echo "/* hand edit */" >> "$TMP/b/sl_records.h"
if "$GEN" --quiet --check --schema "$ROOT/schema" --out "$TMP/b" 2>"$TMP/err"; then
  echo "FAIL: --check did not notice an edited sl_records.h" >&2
  exit 1
fi
grep -q 'sl_records.h: stale' "$TMP/err" || { echo "FAIL: --check did not name the stale file" >&2; exit 1; }
echo "generated/ is fresh ($(ls "$TMP/a" | wc -l) files)"

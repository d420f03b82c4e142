#!/usr/bin/env bash
# sched-overhead DFX_DIR: an L3 directory of rankN/dN captures (two copies of the anchor
# fixture) gives a report per rank and the total, for every dispatch and for --dispatch d0;
# a dispatch that is not there is an error naming the folder.
set -u
sw=${1:?usage: dfx_dir.sh SWIMLANE FIXTURE_DIR}
fx=${2:?usage: dfx_dir.sh SWIMLANE FIXTURE_DIR}
w=$(mktemp -d) && trap 'rm -rf "$w"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
for r in 0 1; do
  mkdir -p "$w/dfx/rank$r/d0" && cp "$fx/chip_swimlane_records.json" "$fx/deps.json" "$w/dfx/rank$r/d0/" || exit 1
done
for args in "" "--dispatch d0"; do
  # shellcheck disable=SC2086 # args is a word list
  "$sw" sched-overhead "$w/dfx" $args >"$w/out" 2>"$w/err" || fail "sched-overhead DIR $args: exit $? ($(cat "$w/err"))"
  [ "$(grep -c '^=== rank[01]/d0 ===$' "$w/out")" = 2 ] || fail "sched-overhead DIR $args: not one report per rank"
  grep -q '^=== total over 2 ranks (d0) ===$' "$w/out" || fail "sched-overhead DIR $args: no total"
  grep -q '^  Tasks: 16 ' "$w/out" || fail "sched-overhead DIR $args: total tasks are not 2 x 8"
done
"$sw" sched-overhead "$w/dfx" --dispatch d1 >"$w/out" 2>"$w/err" && fail "--dispatch d1: exit 0"
grep -q "^swimlane: $w/dfx: no rankN/d1 capture directories" "$w/err" || fail "--dispatch d1: message: $(cat "$w/err")"
echo "ok: sched-overhead DFX_DIR, per rank and total"

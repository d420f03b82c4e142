#!/bin/sh
# compare_convert.sh OLD_SWIMLANE NEW_SWIMLANE WORKDIR — byte comparison of two builds'
# `convert` on every capture shipped in tests/ (fixtures, goldens, the records fuzz
# corpus): the trace (JSON and protobuf, with and without --overhead / -v) and what
# each prints (stdout, stderr, exit status). Used to show a refactor changes nothing.
set -u
old=$1 new=$2 work=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work" && mkdir -p "$work"
n=0 bad=0
for rec in "$root"/tests/fixtures/*/chip_swimlane_records.* "$root"/tests/fixtures/*/*/chip_swimlane_records.* \
           "$root"/tests/golden/*/chip_swimlane_records.* "$root"/tests/fuzz/corpus/records/*.json; do
  [ -f "$rec" ] || continue
  for flags in "" "--format proto" "--overhead -v" "--format proto --overhead -v" "-q"; do
    n=$((n + 1))
    for side in old new; do
      d="$work/$n/$side"
      mkdir -p "$d"
      cp "$(dirname "$rec")"/* "$d"/ 2>/dev/null
      bin=$old; [ $side = new ] && bin=$new
      (cd "$d" && SWIMLANE_HOME="$root" "$bin" convert "$(basename "$rec")" -o trace.out $flags \
         >stdout.txt 2>stderr.txt; echo $? >rc.txt)
    done
    for f in trace.out stdout.txt stderr.txt rc.txt; do
      if ! cmp -s "$work/$n/old/$f" "$work/$n/new/$f"; then
        [ -f "$work/$n/old/$f" ] || [ -f "$work/$n/new/$f" ] || continue
        echo "DIFFERS: $rec [$flags] $f"
        bad=$((bad + 1))
      fi
    done
  done
done
echo "$n conversions compared, $bad differences"
[ $bad -eq 0 ]

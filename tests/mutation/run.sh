#!/usr/bin/env bash
# run.sh BUILD [N] [SEED] — mutation testing (not part of CI; minutes).
#
# Copies the tree (tracked and untracked, not ignored files) to BUILD/src, builds it in
# BUILD/build (Debug), then for N seeded mutants (tests/mutation/mutate.py: comparisons,
# arithmetic, boolean, constants +-1, dropped statements over the product sources): apply
# one, rebuild (a mutant that does not compile is skipped), run the tests relevant to the
# mutated module (MUTATION_TESTS=regex overrides), restore. A mutant is killed when a test
# fails or times out (every test's timeout capped at 30 s: a mutant that loops forever). Prints every result, the score killed / (killed + survived) and the
# survivors. Defaults: N = 60, SEED = 1. See docs/testing.md.
set -u
build=${1:?usage: tests/mutation/run.sh BUILD [N] [SEED]}
n=${2:-60}
seed=${3:-1}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$build" && build=$(cd "$build" && pwd)
src=$build/src bld=$build/build log=$build/log
mkdir -p "$log"

# the relevant tests of each product folder (ctest -R)
tests_for() {
  [ -n "${MUTATION_TESTS:-}" ] && { echo "$MUTATION_TESTS"; return; }
  case $1 in
    runtime/core/*) echo '^(test_runtime|test_mechanisms|test_phase_coverage|test_run_e2e|run_timing|golden)$' ;;
    runtime/profiler/*) echo '^(test_prof_.*|golden)$' ;;
    host/collector/*) echo '^(test_prof_.*|test_e2e|test_collector.*|golden)$' ;;
    host/reader/*) echo '^(test_reader.*|overhead_cli_.*|golden)$' ;;
    host/convert/*|host/trace/*|tools/convert/*) echo '^(test_convert.*|test_sink_proto|check_convert_proto_e2e|golden)$' ;;
    host/overhead/*|tools/overhead/*) echo '^(test_overhead.*|overhead_cli_.*|golden)$' ;;
    runtime/pipe/*) echo '^(test_l0_pipe|test_l0_templates|test_l0_perfetto)$' ;;
    *) echo '.' ;;
  esac
}

echo "mutation: copying the tree to $src"
# a fresh copy and a fresh build: objects of an earlier, interrupted run may hold a mutant
rm -rf "$src" "$bld" && mkdir -p "$src"
(cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 tar cf - 2>/dev/null) | (cd "$src" && tar xf -)
cmake -S "$src" -B "$bld" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSL_TEST_TIMEOUT_CAP=30 >"$log/configure.txt" 2>&1 &&
  cmake --build "$bld" -j2 >"$log/build0.txt" 2>&1 || { echo "mutation: the unmutated tree does not build (see $log)"; exit 1; }
python3 "$here/mutate.py" list "$src" "$n" "$seed" >"$build/mutants.tsv" || exit 1

killed=0 survived=0 skipped=0
: >"$build/survivors.txt"
while IFS=$'\t' read -r id file line col old new; do
  cp "$src/$file" "$build/orig.c"
  desc="#$id $file:$line:$col '$old' -> '$new'"
  if ! python3 "$here/mutate.py" apply "$src" "$file" "$line" "$col" "$old" "$new" 2>/dev/null; then
    skipped=$((skipped + 1)); echo "skipped (no site)   $desc"; continue
  fi
  if ! timeout 600 cmake --build "$bld" -j2 >"$log/build$id.txt" 2>&1; then
    skipped=$((skipped + 1)); verdict="skipped (no build)"
  elif (cd "$bld" && timeout 900 ctest -R "$(tests_for "$file")" -LE bench --timeout 30 --stop-on-failure -j2 >"$log/test$id.txt" 2>&1); then
    survived=$((survived + 1)); verdict="SURVIVED"; echo "$desc" >>"$build/survivors.txt"
  else
    killed=$((killed + 1)); verdict="killed"
  fi
  echo "$verdict$(printf '%*s' $((20 - ${#verdict})) '')$desc"
  cp "$build/orig.c" "$src/$file"
  touch "$src/$file"
done <"$build/mutants.tsv"
cmake --build "$bld" -j2 >/dev/null 2>&1 # leave the copy built unmutated
total=$((killed + survived))
echo "mutation: seed $seed, $n mutants: $killed killed, $survived survived, $skipped skipped (do not compile)"
[ $total -gt 0 ] && echo "mutation score: $((100 * killed / total))% ($killed/$total)"
[ $survived -gt 0 ] && { echo "survivors:"; sed 's/^/  /' "$build/survivors.txt"; }
exit 0

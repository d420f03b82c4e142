#!/usr/bin/env bash
# run.sh BUILD [N] [SEED] — mutation testing (not part of CI; minutes).
#
# Copies the tree (tracked and untracked, not ignored files) to BUILD/src, builds it in
# BUILD/build (Debug), runs every test the mutants will need once unmutated (the baseline:
# each test's own duration on this machine, now), then for N seeded mutants
# (tests/mutation/mutate.py: comparisons, arithmetic, boolean, constants +-1, dropped
# statements over the product sources): apply one, rebuild (a mutant that does not compile
# is skipped), run the tests relevant to the mutated module one by one (MUTATION_TESTS=regex
# overrides), stop at the first that fails, restore. Each test gets a time cap scaled from
# its baseline (MUTATION_SCALE x baseline, at least MUTATION_MIN_CAP s; defaults 5 and 20),
# so a mutant that loops forever costs seconds while a slow test on a loaded machine is not
# cut short. A test that hits its cap is re-run once with 4x the cap: only a second timeout
# counts, and such kills are reported apart from real failures ("killed (timeout)").
# A mutant listed in tests/mutation/equivalent.txt (an equivalent mutant, with the reason
# it cannot change behaviour) is not run and not counted; it is printed with its reason.
# Prints every result, the score killed / (killed + survived) (also with the equivalent
# ones counted as survivors) and the survivors.
# Defaults: N = 60, SEED = 1. See docs/testing.md.
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
    runtime/core/*) echo '^(test_runtime|test_mechanisms|test_phase_coverage|test_run_e2e|run_timing|hbg_e2e|test_hazards|test_aisched|golden)$' ;;
    runtime/profiler/*) echo '^(test_prof_.*|golden)$' ;;
    host/collector/*) echo '^(test_prof_.*|test_e2e|test_collector.*|golden)$' ;;
    host/reader/*) echo '^(test_reader.*|overhead_cli_.*|hbg_e2e|schema_evolution_read|golden)$' ;;
    host/convert/*|host/trace/*|tools/convert/*) echo '^(test_convert.*|test_sink_proto|check_convert_proto_e2e|cli_ux|golden)$' ;;
    host/overhead/*|tools/overhead/*) echo '^(test_overhead.*|overhead_cli_.*|golden)$' ;;
    runtime/pipe/*) echo '^(test_l0_pipe|test_l0_templates|test_l0_perfetto|test_l0_verify)$' ;;
    *) echo '.' ;;
  esac
}

echo "mutation: copying the tree to $src"
# a fresh copy and a fresh build: objects of an earlier, interrupted run may hold a mutant
rm -rf "$src" "$bld" && mkdir -p "$src"
(cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 tar cf - 2>/dev/null) | (cd "$src" && tar xf -)
cmake -S "$src" -B "$bld" -G Ninja -DCMAKE_BUILD_TYPE=Debug >"$log/configure.txt" 2>&1 &&
  cmake --build "$bld" -j2 >"$log/build0.txt" 2>&1 || { echo "mutation: the unmutated tree does not build (see $log)"; exit 1; }
python3 "$here/mutate.py" list "$src" "$n" "$seed" >"$build/mutants.tsv" || exit 1

scale=${MUTATION_SCALE:-5} min_cap=${MUTATION_MIN_CAP:-20}
# the tests a regex selects, in ctest's order (bench excluded)
tests_matching() {
  (cd "$bld" && ctest -N -R "$1" -LE bench) | sed -n 's/^ *Test *#[0-9]*: //p'
}
# run one test under a cap; 0 = passed, 124 = timed out, else failed
run_one() { # name cap logfile
  local re
  re="^$(printf '%s' "$1" | sed 's/[][\.*^$+?(){}|]/\\&/g')\$"
  (cd "$bld" && timeout -k 5 "$2" ctest -R "$re" -LE bench --output-on-failure >>"$3" 2>&1 </dev/null)
}

# Baseline: every test some mutant needs, unmutated, timed. A test that fails here would
# kill every mutant, so it is left out (and named).
echo "mutation: baseline run of the tests the $n mutants need"
declare -A base=()
: >"$build/baseline.tsv"
cut -f2 "$build/mutants.tsv" | while read -r f; do tests_for "$f"; done | sort -u >"$build/regexes.txt"
while read -r re; do tests_matching "$re"; done <"$build/regexes.txt" | sort -u >"$build/needed.txt"
while read -r t; do
  t0=$(date +%s.%N)
  if run_one "$t" 1800 "$log/baseline.txt"; then
    awk -v t="$t" -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%s\t%.1f\n", t, b - a }' >>"$build/baseline.tsv"
  else
    echo "mutation: '$t' fails unmutated; left out (see $log/baseline.txt)"
  fi
done <"$build/needed.txt"
while IFS=$'\t' read -r t sec; do base[$t]=$sec; done <"$build/baseline.tsv"
echo "mutation: baseline of ${#base[@]} tests (seconds): $(tr '\t\n' '= ' <"$build/baseline.tsv")"

killed=0 timeouts=0 survived=0 skipped=0 equivalent=0
: >"$build/survivors.txt"
: >"$build/equivalent.txt"
: >"$build/timeout_kills.txt"
while IFS=$'\t' read -r id file line col old new; do
  cp "$src/$file" "$build/orig.c"
  desc="#$id $file:$line:$col '$old' -> '$new'"
  if ! python3 "$here/mutate.py" apply "$src" "$file" "$line" "$col" "$old" "$new" 2>/dev/null; then
    skipped=$((skipped + 1)); echo "skipped (no site)   $desc"; continue
  fi
  verdict=SURVIVED by=
  if why=$(python3 "$here/mutate.py" equivalent "$src" "$file" "$line" "$col" "$old" "$new"); then
    verdict=equivalent by=$why # listed in equivalent.txt, with the reason: not run, not counted
  elif ! timeout 600 cmake --build "$bld" -j2 >"$log/build$id.txt" 2>&1 </dev/null; then
    verdict="skipped (no build)"
  else
    : >"$log/test$id.txt"
    for t in $(tests_matching "$(tests_for "$file")"); do
      [ -n "${base[$t]:-}" ] || continue
      cap=$(awk -v b="${base[$t]}" -v k="$scale" -v m="$min_cap" 'BEGIN { c = int(b * k + 0.5); print (c < m ? m : c) }')
      run_one "$t" "$cap" "$log/test$id.txt"; rc=$?
      if [ $rc -eq 124 ]; then # timed out: once more with 4x the cap before believing it
        echo "mutation: $t hit its ${cap}s cap; re-run with $((4 * cap))s" >>"$log/test$id.txt"
        run_one "$t" $((4 * cap)) "$log/test$id.txt"; rc=$?
      fi
      if [ $rc -eq 124 ]; then verdict="killed (timeout)" by=$t; break
      elif [ $rc -ne 0 ]; then verdict=killed by=$t; break; fi
    done
  fi
  case $verdict in
    killed) killed=$((killed + 1)) ;;
    "killed (timeout)") timeouts=$((timeouts + 1)); echo "$desc by $by" >>"$build/timeout_kills.txt" ;;
    SURVIVED) survived=$((survived + 1)); echo "$desc" >>"$build/survivors.txt" ;;
    equivalent) equivalent=$((equivalent + 1)); echo "$desc: $by" >>"$build/equivalent.txt" ;;
    *) skipped=$((skipped + 1)) ;;
  esac
  echo "$verdict$(printf '%*s' $((20 - ${#verdict})) '')$desc${by:+  [$by]}"
  cp "$build/orig.c" "$src/$file"
  touch "$src/$file"
done <"$build/mutants.tsv"
cmake --build "$bld" -j2 >/dev/null 2>&1 # leave the copy built unmutated
all=$((killed + timeouts))
total=$((all + survived))
echo "mutation: seed $seed, $n mutants: $killed killed by a failing test, $timeouts killed by a timeout" \
  "(twice, at ${scale}x and $((4 * scale))x the baseline), $survived survived, $equivalent equivalent" \
  "(tests/mutation/equivalent.txt), $skipped skipped (do not compile)"
[ $total -gt 0 ] && echo "mutation score: $((100 * all / total))% ($all/$total); by failing tests alone:" \
  "$((100 * killed / total))% ($killed/$total); counting the equivalent ones as survivors:" \
  "$((100 * all / (total + equivalent)))% ($all/$((total + equivalent)))"
[ $timeouts -gt 0 ] && { echo "killed by a timeout:"; sed 's/^/  /' "$build/timeout_kills.txt"; }
[ $survived -gt 0 ] && { echo "survivors:"; sed 's/^/  /' "$build/survivors.txt"; }
[ $equivalent -gt 0 ] && { echo "equivalent (not run):"; sed 's/^/  /' "$build/equivalent.txt"; }
exit 0

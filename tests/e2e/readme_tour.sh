#!/bin/sh
# The README's "A tour" block, run as written, after the demo's run has left an outputs/
# folder (the order a new user takes): every step must exit 0 and leave what it says.
# usage: readme_tour.sh SWIMLANE README WORKDIR
set -eu
sw_bin=$1 readme=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"

# the block between "## A tour" and its closing fence, with sw= aimed at this build
awk '/^## A tour/ {on = 1; next} on && /^```sh/ {body = 1; next} body && /^```/ {exit} body' \
    "$readme" > tour.sh
grep -q '^sw=' tour.sh || { echo "readme_tour: $readme: no sw= line in the tour block" >&2; exit 1; }
steps=$(grep -c '^\$sw ' tour.sh)
[ "$steps" -ge 6 ] || { echo "readme_tour: $readme: only $steps \$sw steps in the tour" >&2; exit 1; }
sed -i "s|^sw=.*|sw='$sw_bin'|" tour.sh

# the demo first (tools/dev.sh demo's run), so the tour meets an outputs/ folder already there
"$sw_bin" run mixed_example --platform a2a3sim --enable-chip-swimlane 4 --enable-dep-gen \
    --dump-args 3 -o outputs > demo.log 2>&1

sh -eu tour.sh > tour.log 2>&1 || { echo "readme_tour: a tour step failed:" >&2; tail -20 tour.log >&2; exit 1; }

# what the steps promise: two captures (the demo's, step 1's), the newer with both trace
# formats; step 5's replay workspace with its pipe trace (l0 --test also runs the workload
# for its args dump, in a folder of its own without a capture)
caps=$(ls outputs/*/chip_swimlane_records.json | wc -l)
[ "$caps" -eq 2 ] || { echo "readme_tour: expected 2 captures, found $caps" >&2; exit 1; }
newest=$(ls -td outputs/*/chip_swimlane_records.json | head -n 1 | sed 's|chip_swimlane_records.json$||')
ls outputs/l0_swimlane_*/*_trace_perfetto.json > /dev/null ||
  { echo "readme_tour: step 5 left no L0 pipe trace" >&2; exit 1; }
for f in chip_swimlane_records.json deps.json merged_swimlane.json merged_swimlane.pftrace; do
  [ -s "$newest$f" ] || { echo "readme_tour: $newest$f missing or empty" >&2; exit 1; }
done
grep -q 'Per-task (all)' tour.log || { echo "readme_tour: no summary table in the tour output" >&2; exit 1; }
grep -qi 'overhead' tour.log || { echo "readme_tour: no sched-overhead report in the tour output" >&2; exit 1; }
echo "readme_tour: $steps steps ok"

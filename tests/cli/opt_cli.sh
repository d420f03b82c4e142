#!/bin/sh
# opt_cli.sh — every command parses its options the one way (host/base/sl_opt.c):
# `--opt=value` does what `--opt value` does, an unknown option exits 2 with
# "swimlane <cmd>: unknown option '--bogus'" and the --help hint, a missing value
# and a bad value exit 2 in the same form, and --help (exit 0) lists the table.
#   opt_cli.sh SWIMLANE WORKDIR
set -u
SW=$1 W=$2
FIX=${SL_FIXTURES:?}/anchor-l4
fail() { echo "FAIL: $*"; [ -f "$W/err" ] && sed 's/^/  stderr: /' "$W/err"; exit 1; }
rm -rf "$W" && mkdir -p "$W" && cd "$W" || exit 1

# The usage-error shape: exactly two lines, the message then the hint; exit 2; nothing on stdout.
usage_error() { # CMD MESSAGE ARGS...
  cmd=$1 msg=$2
  shift 2
  "$SW" "$cmd" "$@" >out 2>err
  rc=$?
  [ $rc -eq 2 ] || fail "$cmd $*: exit $rc, want 2"
  printf "swimlane %s: %s\nTry 'swimlane %s --help' for the options.\n" "$cmd" "$msg" "$cmd" >want
  cmp -s err want || fail "$cmd $*: message differs from '$msg'"
  [ -s out ] && fail "$cmd $*: output on stdout"
  return 0
}

for cmd in run convert sched-overhead check-trace l0 schema diff; do
  usage_error "$cmd" "unknown option '--bogus'" --bogus
  usage_error "$cmd" "unknown option '--bogus'" --bogus=1
  "$SW" "$cmd" --help >out 2>err || fail "$cmd --help: exit $?"
  head -n 1 out | grep -q "^usage: swimlane $cmd " || fail "$cmd --help: no usage line"
  grep -q "^  -h, --help  *print this help$" out || fail "$cmd --help: no option list"
  "$SW" "$cmd" -h >out2 2>err && cmp -s out out2 || fail "$cmd -h differs from --help"
done

# Missing and bad values, same form everywhere.
usage_error run "--clock needs a value" mixed_example --clock
usage_error run "--clock expects 'wall' or 'virtual', got 'sundial'" mixed_example --clock=sundial
usage_error run "--enable-chip-swimlane expects an integer in 0..4, got '7'" mixed_example --enable-chip-swimlane=7
usage_error run "--quiet takes no value (got '--quiet=yes')" mixed_example --quiet=yes
usage_error run "--dispatches, --hosts and the ppm bounds need --ranks N" mixed_example --dispatches=2
usage_error run "--ranks expects an integer in 1..64, got '0'" mixed_example --ranks=0
usage_error run "--rate-error-ppm expects an integer in 0..1000, got '2000'" mixed_example --ranks 2 --rate-error-ppm 2000
usage_error run "unknown option '--bogus'" mixed_example --ranks=2 --bogus
usage_error convert "--format expects 'json' or 'proto', got 'xml'" "$FIX/chip_swimlane_records.json" --format=xml
usage_error convert "-o needs a value" "$FIX/chip_swimlane_records.json" -o
usage_error convert "unexpected argument 'b'" a b
usage_error sched-overhead "--deps-json needs a value" "$FIX/chip_swimlane_records.json" --deps-json
usage_error check-trace "--max-problems expects an integer in 0..2147483647, got '-1'" x --max-problems=-1
usage_error check-trace "no FILE given"
usage_error l0 "--test WORKLOAD is required" --func-id=1
usage_error diff "need BASE and NEW captures (or BASE... -- NEW...)" onlyone
usage_error diff "bad --fail-if 'nonsense' (e.g. makespan>5%, MATMUL.exec>10us)" a b --fail-if=nonsense

# --opt=value does what --opt value does: same outputs, byte for byte.
cp "$FIX/chip_swimlane_records.json" "$FIX/deps.json" "$FIX/name_map_sample.json" . || exit 1
"$SW" convert chip_swimlane_records.json -q -o sep.json --deps-json deps.json --format json 2>err ||
  fail "convert --opt value: exit $?"
"$SW" convert chip_swimlane_records.json -q -o=eq.json --deps-json=deps.json --format=json 2>err ||
  fail "convert --opt=value: exit $?"
cmp -s sep.json eq.json || fail "convert: --opt=value gives another trace"
"$SW" convert chip_swimlane_records.json -q --output=eq.pftrace --format=proto 2>err || fail "convert proto"
[ -s eq.pftrace ] || fail "convert --output=: no trace"

out=$("$SW" check-trace --format=json --max-problems=0 sep.json 2>err) || fail "check-trace --opt=value: exit $?"
case $out in OK:*) ;; *) fail "check-trace --opt=value: $out" ;; esac

"$SW" sched-overhead --deps-json=deps.json --summary-json=oh_eq.json chip_swimlane_records.json >oh_eq.txt 2>err ||
  fail "sched-overhead --opt=value: exit $?"
"$SW" sched-overhead --deps-json deps.json --summary-json oh_sep.json chip_swimlane_records.json >oh_sep.txt 2>err ||
  fail "sched-overhead --opt value: exit $?"
sed 's/oh_eq/oh_sep/' oh_eq.txt | cmp -s - oh_sep.txt || fail "sched-overhead: reports differ"
cmp -s oh_eq.json oh_sep.json || fail "sched-overhead: --summary-json differs"

"$SW" diff chip_swimlane_records.json chip_swimlane_records.json --format=json >diff_eq.json 2>err ||
  fail "diff --format=json: exit $?"
grep -q '"makespan_us"' diff_eq.json || fail "diff --format=json: no JSON report"

"$SW" schema --fields >schema_sep.txt 2>err || fail "schema --fields: exit $?"
"$SW" schema --schema="$SWIMLANE_HOME/schema" --fields >schema_eq.txt 2>err || fail "schema --schema=DIR: exit $?"
cmp -s schema_sep.txt schema_eq.txt || fail "schema: --schema=DIR gives another summary"

"$SW" run mixed_example --enable-chip-swimlane=2 --output=eqruns -q --no-convert --clock=virtual 2>err ||
  fail "run --opt=value: exit $?"
rec=$(ls eqruns/*/chip_swimlane_records.json 2>/dev/null | head -n 1)
[ -n "$rec" ] || fail "run --output=DIR: no capture under eqruns/"
grep -q '"chip_swimlane_level": *2' "$rec" || fail "run --enable-chip-swimlane=2: not a level-2 capture"

# The L3 options come from the same table: --ranks=N --dispatches=K starts N rank processes.
"$SW" run mixed_example --ranks=2 --dispatches=1 --output=l3runs -q --no-convert --enable-chip-swimlane=1 2>err ||
  fail "run --ranks=2: exit $?"
for r in 0 1; do
  ls l3runs/*/rank$r/d0/chip_swimlane_records.json >/dev/null 2>&1 || fail "run --ranks=2: no rank$r/d0 capture"
done
ls l3runs/*/rank2 >/dev/null 2>&1 && fail "run --ranks=2: a third rank"
echo "opt_cli: ok"

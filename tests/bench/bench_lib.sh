# bench_lib.sh — pieces the benchmark scripts share (sourced by run_all.sh and
# convert/run_bench.sh): timing one command, finding gen_capture.py, generating a
# capture once, and the reference converter's import shim.

# bench_measure LABEL LOGFILE CMD... -> sets WALL (s), RSS (MB), CPU (user + system s)
bench_measure() {
  local label=$1 log=$2
  shift 2
  if ! /usr/bin/time -v -o "$log.time" "$@" > "$log" 2>&1; then
    echo "bench: $label failed, see $log" >&2
    tail -5 "$log" >&2
    exit 1
  fi
  local e
  e=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$log.time")
  WALL=$(echo "$e" | awk -F: '{ if (NF == 3) print $1*3600 + $2*60 + $3; else print $1*60 + $2 }')
  RSS=$(awk '/Maximum resident set size/ { printf "%.0f", $6 / 1024 }' "$log.time")
  # CPU seconds (user + system): stable on a loaded machine, where wall time is not
  CPU=$(awk '/User time|System time/ { s += $NF } END { printf "%.2f", s }' "$log.time")
}

# bench_find_gen ROOT: path of gen_capture.py ($SL_GEN_CAPTURE, then beside the checkout)
bench_find_gen() {
  local g
  for g in ${SL_GEN_CAPTURE:-} "$1/../shared/tools/gen_capture.py" /work/shared/tools/gen_capture.py; do
    [ -f "$g" ] && { echo "$g"; return 0; }
  done
  return 1
}

# bench_capture_dir GEN BENCH N: prints the folder of an N-task capture, generating it once
bench_capture_dir() {
  local gen=$1 bench=$2 n=$3 dir=$2/capture_$3
  if [ ! -f "$dir/chip_swimlane_records.json" ]; then
    # generate aside and rename, so a concurrent run never reads a half-written capture
    rm -rf "$dir.tmp.$$"
    python3 "$gen" "$n" "$dir.tmp.$$" > /dev/null
    mkdir -p "$dir"
    mv "$dir.tmp.$$"/deps.json "$dir.tmp.$$"/name_map_*.json "$dir"/
    mv "$dir.tmp.$$"/chip_swimlane_records.json "$dir"/ # last: its presence means complete
    rmdir "$dir.tmp.$$"
  fi
  echo "$dir"
}

# bench_ref_shim CHECKOUT BENCH: prints a PYTHONPATH exposing only the reference's
# simpler_setup.tools (its package __init__ pulls in its whole toolchain)
bench_ref_shim() {
  [ -d "$1/simpler_setup/tools" ] || { echo "bench: $1 has no simpler_setup/tools" >&2; exit 1; }
  mkdir -p "$2/refshim/simpler_setup"
  : > "$2/refshim/simpler_setup/__init__.py"
  ln -sfn "$1/simpler_setup/tools" "$2/refshim/simpler_setup/tools"
  echo "$2/refshim"
}

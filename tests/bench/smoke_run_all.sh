#!/usr/bin/env bash
# smoke_run_all.sh BUILD — run_all.sh at tiny sizes (ctest, so the benchmark command
# cannot rot): every row of the table must be printed with figures in it. Checks
# that it runs and what it prints, never how fast anything was. (grep reads a here-string:
# `echo | grep -q` under pipefail fails at random once the table outgrows one write.)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
export SL_BENCH_DIR=$(mktemp -d "${TMPDIR:-/tmp}/swl-bench-smoke.XXXXXX")
trap 'rm -rf "$SL_BENCH_DIR"' EXIT
out=$("$HERE/run_all.sh" "$1" --sizes "300 600" --quick)
echo "$out"
for want in '`convert` 300 tasks, JSON .* s wall .* MB \| I/O floor: [0-9.]+ s \| \*\*[0-9.]+× the floor' \
            '`convert --format proto` 600 tasks .* [0-9.]+× the JSON time' \
            '`sched-overhead` 600 tasks \| [0-9.]+ s wall' \
            'growth 300 → 600 tasks .*JSON ×[0-9.]+' \
            'capture overhead: level 4 vs level 0 .*median [0-9.]+×.*CPU median [0-9.]+×.* records dropped' \
            'zero-drop record rate.*M records/s' \
            'device writer: generated writer .sl_write_aicpu_task.*ns/record \| [0-9.]+ ns/record \| [0-9.]+×' \
            'device writer: AICore hooks.*ns/record \| [0-9.]+ ns/record \| [0-9.]+×' \
            'clock anchors per HBG launch.* \| [0-9.]+–[0-9.]+ µs \| .* round trip [0-9.]+–[0-9.]+ µs'; do
  grep -Eq -- "$want" <<<"$out" || { echo "smoke_run_all.sh: no row matching: $want" >&2; exit 1; }
done

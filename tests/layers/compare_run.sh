#!/bin/bash
# compare_run.sh OLD_SWIMLANE OLD_SRC NEW_SWIMLANE NEW_SRC WORKDIR — byte comparison of two
# builds' `run` on every shipped workload: the virtual-clock capture at full collection with
# deps.json and the args dump (every file run writes: records .json and .pb, deps.json, name
# map, device log, args dump, merged trace), then check-trace and diff on what it wrote, and
# what each prints (stdout, stderr, exit status; the host wall time is the one line that
# varies). The a5 AICore Scheduler has no virtual clock: its run is compared by exit status.
# Each binary runs from its own source tree (OLD_SRC, NEW_SRC: their lua/ folders).
set -u
old=$(realpath "$1") oldsrc=$(realpath "$2") new=$(realpath "$3") newsrc=$(realpath "$4") work=$5
rm -rf "$work" && mkdir -p "$work"
n=0 bad=0
for wc in mixed_example spmd_multiblock:mix paged_attention vector_example async_dma bench_flat:tiny fanout \
          graph_exec hazards hazards:raw scopes slowdown_example sync_start spmd_multiblock:aiv \
          vector_example+hbg mixed_example+a5; do
  w=${wc%%[:+]*} extra=() clk=(--clock virtual)
  case $wc in *:*) c=${wc#*:}; extra+=(--case "${c%%+*}") ;; esac
  case $wc in
  *+hbg) extra+=(--runtime hbg) ;;
  *+a5) extra+=(--runtime hbg --platform a5sim); clk=(--clock wall) ;;
  esac
  for side in old new; do
    bin=$old src=$oldsrc
    [ $side = new ] && bin=$new src=$newsrc
    d=$work/$n-$side
    mkdir -p "$d/run"
    (cd "$src" && timeout 120 "$bin" run "$w" "${extra[@]}" --enable-chip-swimlane 4 --enable-dep-gen --dump-args 3 \
       "${clk[@]}" -o "$d/run" >"$d/run_stdout.txt" 2>"$d/run_stderr.txt"; echo $? >"$d/run_rc.txt")
    mv "$d"/run/*/* "$d"/ 2>/dev/null
    rm -rf "$d/run"
    sed -i -E "s#$d/run/[^ ]*##g; s/host wall [0-9.]+ us/host wall N us/" "$d/run_stdout.txt" "$d/run_stderr.txt"
    (cd "$d" && {
      timeout 60 "$bin" check-trace merged_swimlane.json >ct_stdout.txt 2>ct_stderr.txt; echo $? >ct_rc.txt
      timeout 60 "$bin" diff chip_swimlane_records.json chip_swimlane_records.json >diff_stdout.txt 2>diff_stderr.txt
      echo $? >diff_rc.txt
    })
  done
  files=$(cd "$work/$n-new" && find . -type f | sort)
  [ "$(cd "$work/$n-old" && find . -type f | sort)" = "$files" ] || { echo "DIFFERENT FILES: $wc"; bad=$((bad + 1)); }
  for f in $files; do
    case $wc in *+a5) case $f in ./run_rc.txt | ./ct_rc.txt | ./diff_rc.txt) ;; *) continue ;; esac ;; esac
    cmp -s "$work/$n-old/$f" "$work/$n-new/$f" || { echo "DIFFERS: $wc $f"; bad=$((bad + 1)); }
  done
  n=$((n + 1))
done
echo "$n workloads compared, $bad differences"
[ $bad -eq 0 ]

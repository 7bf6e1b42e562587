#!/usr/bin/env bash
# Runs on one GPU: where the variable-density step's time goes. The step at 512^3 (R = 4, Gardner's density of the
# layered model, free surface) timed by seis-wave's benchmark mode, then one launch of its kernel under Nsight Compute
# (clocks left alone, METHOD.md): throughput against the peaks, memory and shared-memory traffic, warp stalls,
# occupancy and registers. The text reports in $OUT (ncu-density.txt), the timing line on stdout.
# usage: perf/device/density-profile.sh   (BUILD as mpi-env.sh)
set -uo pipefail
. perf/device/mpi-env.sh
run=("$build/app/seis-wave-serial" --model layered --grid 512 --spacing 20 --ndamp 27 --radius 4 --strategy unified
     --density gardner --top free --quiet --overwrite)
"${run[@]}" --duration 0.161 --benchmark --output /tmp/density-timing > "$OUT/timing.log" 2>&1
echo "timing: exit $?, $(grep -oE '^done: [0-9.]+ ms/step.*' "$OUT/timing.log")"
ncu --clock-control none --kernel-name-base demangled --kernel-name regex:DensityKernel --launch-skip 2 --launch-count 1 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
  --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats \
  "${run[@]}" --duration 0.01 --output /tmp/density-ncu > "$OUT/ncu-density.txt" 2>&1
echo "ncu: exit $?, $(grep -E 'Duration|Memory Throughput|DRAM Throughput|Achieved Occupancy' "$OUT/ncu-density.txt" |
  tr -s ' ' | tr '\n' ';')"

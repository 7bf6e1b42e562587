#!/usr/bin/env bash
# Runs on one GPU: the TTI step at 512^3 (552^3 with its 20-point layer; epsilon 0.2, delta 0.1, tilt 30, azimuth 20,
# no source zone) of the carried build's seis-wave-serial (BUILD, as mpi-env.sh) and of each BINARY given (another
# commit's, or a variant of the kernel), ROUNDS rounds alternating, R = 4 and 8, beside the carried build's
# isotropic step of the same grid: each run's ms/step and share of its copy yardstick (--benchmark), the seismograms
# compared bit for bit with the carried build's. Then one launch of each of the carried build's two TTI kernels at
# R = 4 under Nsight Compute (clocks left alone, METHOD.md): $OUT/ncu-tti.txt.
# usage: perf/device/tti-step.sh ROUNDS BINARY...
set -uo pipefail
. perf/device/mpi-env.sh
rounds=$1
shift
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
base=(--grid 512 --spacing 10 --model homogeneous:2000 --ndamp 20 --f0 10 --source 2560,2560,2560
      --receivers 0,2560,100:5110,2560,100:64 --quiet --overwrite)
tti=(--epsilon 0.2 --delta 0.1 --tilt 30 --azimuth 20 --source-zone 0)
for round in $(seq "$rounds"); do
  for radius in 4 8; do
    for binary in "$build/app/seis-wave-serial" "$@" isotropic; do
      extra=("${tti[@]}") name=$(basename "$binary")
      [ "$binary" != isotropic ] || binary=$build/app/seis-wave-serial extra=()
      "$binary" "${base[@]}" "${extra[@]}" --radius $radius --duration 0.2 --benchmark --output "/tmp/tti-$name-$radius" \
        > "$OUT/r$round-R$radius-$name.log" 2>&1
      echo "R $radius round $round $name: exit $?, $(grep -oE '^done: .*' "$OUT/r$round-R$radius-$name.log")"
    done
  done
done
for radius in 4 8; do
  for binary in "$@"; do
    cmp -s "/tmp/tti-seis-wave-serial-$radius/seismogram.sgy" "/tmp/tti-$(basename "$binary")-$radius/seismogram.sgy" &&
      echo "R $radius $(basename "$binary"): seismogram bitwise the build's" ||
      echo "R $radius $(basename "$binary"): seismogram differs"
  done
done
ncu --clock-control none --kernel-name-base demangled --kernel-name regex:tti_pass --launch-skip 2 --launch-count 2 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
  --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats \
  "$build/app/seis-wave-serial" "${base[@]}" "${tti[@]}" --radius 4 --duration 0.01 --output /tmp/tti-ncu \
  > "$OUT/ncu-tti.txt" 2>&1
echo "ncu: exit $?, $(grep -E 'Duration|DRAM Throughput|L2 Hit Rate|L1/TEX Hit Rate|Achieved Occupancy|Registers Per' \
  "$OUT/ncu-tti.txt" | tr -s ' ' | tr '\n' ';')"

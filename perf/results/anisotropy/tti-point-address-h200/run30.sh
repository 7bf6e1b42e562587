#!/usr/bin/env bash
# The TTI passes by the point's address against the build before (tti0): the step at 512^3 for R = 1..8 (one round,
# R = 4 a third), then each pass's duration at R = 4 and 8 under Nsight Compute (four launches: both passes twice).
set -uo pipefail
[ -d .device-carry/cuda ] || tar -xJf .device-pack/carry.tar.xz
export BUILD=.device-carry/cuda; . perf/device/mpi-env.sh
base=(--grid 512 --spacing 10 --model homogeneous:2000 --ndamp 20 --f0 10 --source 2560,2560,2560
      --receivers 0,2560,100:5110,2560,100:64 --quiet --overwrite --epsilon 0.2 --delta 0.1 --tilt 30 --azimuth 20 --source-zone 0)
for r in 1 2 3 4 5 6 7 8 4; do
  for b in .device-carry/var/seis-wave-tti0 .device-carry/cuda/app/seis-wave-serial; do
    n=$(basename $b)
    timeout 60 $b "${base[@]}" --radius $r --duration 0.2 --benchmark --output /tmp/tti-$n-$r > /tmp/tti.log 2>&1
    echo "TTI R $r $n: exit $?, $(grep -oE '^done: .*' /tmp/tti.log)"
  done
  cmp -s /tmp/tti-seis-wave-tti0-$r/seismogram.sgy /tmp/tti-seis-wave-serial-$r/seismogram.sgy && echo "TTI R $r: seismogram bitwise" || echo "TTI R $r: seismogram differs"
done
for r in 4 8; do for b in .device-carry/var/seis-wave-tti0 .device-carry/cuda/app/seis-wave-serial; do
  timeout 90 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:tti_pass_of --launch-skip 4 --launch-count 4 \
    --metrics gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread $b "${base[@]}" --radius $r --duration 0.01 --output /tmp/ncu > /tmp/ncu.txt 2>&1
  echo "ncu R $r $(basename $b): exit $?"; grep -E "tti_pass_of|gpu__time_duration|inst_executed|registers" /tmp/ncu.txt | sed -E 's/void Kokkos::Impl::cuda_parallel_launch_local_memory<Kokkos::Impl::ParallelFor<seis::wave::tti_pass_of<(true|false).*(lambda[^,]*).*/tti \1 \2/' | cut -c1-160
done; done

#!/usr/bin/env bash
# Second call of the lease: run27.sh's timing (split decodes, the density step at R = 4 on 8-row tiles), then the TTI
# step at 512^3 against the build before the TTI change (R = 4 two rounds, R = 8 one; seismograms bitwise), then
# memcheck and racecheck over the short tests of the changed kernels (the first call's filters ran past their time).
set -uo pipefail
[ -d .device-carry/cuda ] || tar -xJf .device-pack/carry.tar.xz
export BUILD=.device-carry/cuda; . perf/device/mpi-env.sh
timeout 230 bash .device-pack/run27.sh
base=(--grid 512 --spacing 10 --model homogeneous:2000 --ndamp 20 --f0 10 --source 2560,2560,2560
      --receivers 0,2560,100:5110,2560,100:64 --quiet --overwrite --epsilon 0.2 --delta 0.1 --tilt 30 --azimuth 20 --source-zone 0)
for rr in "1 4" "1 8" "2 4"; do set -- $rr
  for b in .device-carry/var/seis-wave-tti0 .device-carry/cuda/app/seis-wave-serial; do
    n=$(basename $b)
    timeout 60 $b "${base[@]}" --radius $2 --duration 0.2 --benchmark --output /tmp/tti-$n-$2 > $OUT/tti-r$1-R$2-$n.log 2>&1
    echo "TTI R $2 round $1 $n: exit $?, $(grep -oE '^done: .*' $OUT/tti-r$1-R$2-$n.log)"
  done
done
for r in 4 8; do cmp -s /tmp/tti-seis-wave-tti0-$r/seismogram.sgy /tmp/tti-seis-wave-serial-$r/seismogram.sgy && echo "TTI R $r: seismogram bitwise" || echo "TTI R $r: seismogram differs"; done
t=.device-carry/cuda/tests/seis_tests_Cuda
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $t --gtest_filter='*VariableDensityPartsMatchWhole:*BornOnTheStepEngineAndItsAdjoint*R4_two_tile:*TtiPartsMatchWhole:*TtiWithoutAnisotropyIsTheIsotropicStep:*TtiTransposedStepIsTheStepsTranspose' > $OUT/memcheck2.log 2>&1; echo "memcheck: exit $?, $(grep -E 'ERROR SUMMARY' $OUT/memcheck2.log | tail -1)"
timeout 70 compute-sanitizer --tool racecheck --error-exitcode 9 $t --gtest_filter='*WaveVariableDensityMatchesReference:*TtiWithoutAnisotropyIsTheIsotropicStep' > $OUT/racecheck2.log 2>&1; echo "racecheck: exit $?, $(grep -E 'RACECHECK SUMMARY' $OUT/racecheck2.log | tail -1)"

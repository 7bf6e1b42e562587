#!/usr/bin/env bash
# FastDivisor::split in every decode (tile origin, face shell, streaming column, blocked points, halo boxes) and the
# density step at R = 4 on 8-row tiles, four teams of 128 an SM: the GPU tests, memcheck and racecheck over the
# kernels whose code changed, and the density tiles run under memcheck.
set -uo pipefail
rm -rf .device-carry; tar -xJf .device-pack/carry.tar.xz
export BUILD=.device-carry/cuda; . perf/device/mpi-env.sh
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader
t=.device-carry/cuda/tests/seis_tests_Cuda
$t > $OUT/tests.log 2>&1; echo "tests: exit $?, $(grep -E '^\[  (PASSED|FAILED) ' $OUT/tests.log | tr '\n' ' ')"
timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 $t --gtest_filter='*WaveStrategiesMatchReference:*WaveShapesMatchReference:*WavePartsMatchWhole:*BornOnTheStepEngineAndItsAdjoint*:*VariableDensityMatchesReference:*VariableDensityPartsMatchWhole' > $OUT/memcheck.log 2>&1; echo "memcheck: exit $?, $(grep -E 'ERROR SUMMARY' $OUT/memcheck.log | tail -1)"
timeout 180 compute-sanitizer --tool racecheck --error-exitcode 9 $t --gtest_filter='*WaveShapesMatchReference:*WaveStrategiesMatchReference:*VariableDensityMatchesReference:*UniformDensity*' > $OUT/racecheck.log 2>&1; echo "racecheck: exit $?, $(grep -E 'RACECHECK SUMMARY' $OUT/racecheck.log | tail -1)"
run=(.device-carry/cuda/app/seis-wave-serial --grid 70x44x150 --ndamp 6 --density gardner --quiet)
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 "${run[@]}" --duration 0.02 --output /tmp/memcheck-tiles > $OUT/memcheck-tiles.log 2>&1; echo "memcheck (tiles): exit $?, $(tail -1 $OUT/memcheck-tiles.log)"

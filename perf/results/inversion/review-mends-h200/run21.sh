#!/usr/bin/env bash
# Review mends (FastDivisor's divisor in the tile origin and the face shell's decode; inner_born_weight and the
# carrying trait moved): the GPU test binary, memcheck and racecheck over the kernels whose code moved.
set -uo pipefail
rm -rf .device-carry; tar -xJf .device-pack/carry.tar.xz
export BUILD=.device-carry/cuda; . perf/device/mpi-env.sh
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader
t=.device-carry/cuda/tests/seis_tests_Cuda
$t > $OUT/tests.log 2>&1; echo "tests: exit $?, $(grep -E '^\[  (PASSED|FAILED) ' $OUT/tests.log | tr '\n' ' ')"
compute-sanitizer --tool memcheck --error-exitcode 9 $t --gtest_filter='*WaveStrategiesMatchReference:*CarriesTheBornWeight*:*BornOnTheStepEngineAndItsAdjoint*:*BornWithAFreeSurface*:*OperatorsBornAndAdjoint*' > $OUT/memcheck.log 2>&1; echo "memcheck: exit $?, $(grep -E 'ERROR SUMMARY' $OUT/memcheck.log | tail -1)"
timeout 240 compute-sanitizer --tool racecheck --error-exitcode 9 $t --gtest_filter='*CarriesTheBornWeight*:*WaveStrategiesMatchReference' > $OUT/racecheck.log 2>&1; echo "racecheck: exit $?, $(grep -E 'RACECHECK SUMMARY' $OUT/racecheck.log | tail -1)"

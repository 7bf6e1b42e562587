#!/usr/bin/env bash
# Runs on one GPU: the variable-density kernel's checks. The carried build's GPU tests; the density tests (the
# oracle, split runs against the whole, Born and its adjoint with a density, Born's density change and its image)
# and the constant-density adjoint's (its layer term and injection share the density's code) under
# compute-sanitizer memcheck, and racecheck on those whose kernels share team memory (the density step's, at R = 4
# staged through registers and at R = 8 by asynchronous copies; the
# density change's passes share none, and their tests take the call's time under racecheck); a Gardner
# run on a grid that crosses the GPU tile's x and y edges and a walk's start in z (82 x 56 x 162 stepped: 3 x 7
# tiles, 2 walks of 128 planes), plainly (its seismogram in $OUT/tiles, for comparison with a host run of the same
# command) and, shorter, under memcheck (racecheck of it takes more than a call's 600 s).
# usage: perf/device/density.sh   (BUILD as mpi-env.sh)
set -uo pipefail
. perf/device/mpi-env.sh
tests=$build/tests/seis_tests_Cuda
"$tests" > "$OUT/tests.log" 2>&1
echo "seis_tests_Cuda: exit $?, $(grep -E '^\[  (PASSED|FAILED) ' "$OUT/tests.log" | tr '\n' ' ')"
filter='*VariableDensity*:*UniformDensity*:*DensityChange*:*BornWithAFreeSurface*:*BornOnTheStepEngine*R1_unified*'
compute-sanitizer --tool memcheck "$tests" --gtest_filter="$filter" > "$OUT/memcheck.log" 2>&1
echo "memcheck (tests): exit $?, $(tail -1 "$OUT/memcheck.log")"
compute-sanitizer --tool racecheck "$tests" \
  --gtest_filter='*VariableDensityMatchesReference:*VariableDensityMatchesReferenceAtRadius8:*UniformDensity*' \
  > "$OUT/racecheck.log" 2>&1
echo "racecheck (tests): exit $?, $(tail -1 "$OUT/racecheck.log")"
run=("$build/app/seis-wave-serial" --grid 70x44x150 --ndamp 6 --density gardner --quiet)
"${run[@]}" --duration 0.3 --output "$OUT/tiles" > "$OUT/tiles.log" 2>&1
echo "tiles: exit $?"
compute-sanitizer --tool memcheck "${run[@]}" --duration 0.02 --output /tmp/memcheck-tiles \
  > "$OUT/memcheck-tiles.log" 2>&1
echo "memcheck (tiles): exit $?, $(tail -1 "$OUT/memcheck-tiles.log")"
find "$OUT/tiles" -name '*.png' -delete

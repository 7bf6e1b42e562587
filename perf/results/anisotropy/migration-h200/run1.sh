#!/usr/bin/env bash
# Issue 58, the TTI migration: the GPU tests, memcheck and racecheck over the changed kernels' tests, then a 512^3 TTI
# shot's forward modelling and its migration with each imaging condition (and the isotropic shot's, for scale),
# two rounds alternating.
set -uo pipefail
tar -xJf .device-pack/carry.tar.xz
export BUILD=.device-carry/cuda
. perf/device/mpi-env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== tests $(date -u +%T)"
"$build/tests/seis_tests_Cuda" --gtest_filter='*Migration*:*Born*:*Tti*:*Reflector*:*Imaging*' > "$OUT/tests.log" 2>&1
echo "tests: exit $?"; grep -E '^\[  (PASSED|FAILED)|FAILED|bound =' "$OUT/tests.log" | tail -20
for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool --error-exitcode 9 "$build/tests/seis_tests_Cuda" \
    --gtest_filter='*TiltedMediumAndItsAdjoint*:*MigrationPlanIsWhat*:*CorrelationImageIsTheSum*' > "$OUT/$tool.log" 2>&1
  echo "$tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$OUT/$tool.log" | tr '\n' ' ')"
done
echo "=== timing $(date -u +%T)"
exe=$build/app/seis-wave
base=(--grid 512 --spacing 10 --model homogeneous:2000 --ndamp 20 --f0 10 --source 2560,2560,100
      --receivers 0,2560,100:5110,2560,100:64 --duration 0.5 --quiet --overwrite)
tti=(--epsilon 0.2 --delta 0.1 --tilt 30 --azimuth 20)
for round in 1 2; do
  for medium in tti isotropic; do
    extra=("${tti[@]}"); [ $medium = tti ] || extra=()
    [ $medium = tti ] || [ $round = 1 ] || continue
    "$exe" "${base[@]}" "${extra[@]}" --benchmark --output /tmp/fwd-$medium > "$OUT/fwd-$medium-$round.log" 2>&1
    echo "$medium forward round $round: exit $? $(grep -oE '^done: .*' "$OUT/fwd-$medium-$round.log")"
    cp /tmp/fwd-$medium/run.json "$OUT/fwd-$medium-$round.json"
    for condition in correlation adjoint; do
      "$exe" "${base[@]}" "${extra[@]}" --migrate /tmp/fwd-$medium/seismogram.sgy --imaging-condition $condition \
        --output /tmp/rtm-$medium-$condition > "$OUT/rtm-$medium-$condition-$round.log" 2>&1
      echo "$medium $condition round $round: exit $? $(tail -2 "$OUT/rtm-$medium-$condition-$round.log" | tr '\n' ' ')"
      cp /tmp/rtm-$medium-$condition/migration.json "$OUT/rtm-$medium-$condition-$round.json"
    done
  done
done
echo "=== done $(date -u +%T)"

#!/usr/bin/env bash
# Runs on one H100 (the device tool) over .device-pack/carry.tar.xz (cuda-mpi/ of perf/device/carry-build.sh with
# seis-wave-serial and seis_tests_Cuda, base/: the previous commit's seis-wave-serial, named by its commit): the checks
# and the A/B of a change to seis-wave's step loop (issue 39's stability watch, issue 36's new shots).
#   tests     seis_tests_Cuda, whole (the host test binaries run in CI)
#   sanitize  compute-sanitizer memcheck and racecheck over the watch's and the new shot's tests, a small seis-wave
#             run and a 3-shot survey
#   ab        seis-wave --benchmark at 512^3, R = 4, unified: the previous binary and this one alternating, three
#             rounds each, ms per step and % of the same run's copy
# usage: perf/device/watch-check.sh STAGE...   (summaries on stdout, logs in $OUT/watch-check.tar.gz)
set -uo pipefail
mkdir -p .device-carry && tar -xJf .device-pack/carry.tar.xz -C .device-carry
build=$(pwd)/.device-carry/cuda-mpi
export LD_LIBRARY_PATH=$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
log=$(mktemp -d /tmp/watch-check.XXXX)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
small=(--grid 96x72x64 --model layered --ndamp 10 --duration 0.1 --quiet)
for stage in "$@"; do
  echo "=== $stage ($(date -u +%H:%M:%S))"
  case $stage in
    tests)
      for t in seis_tests_Cuda; do
        [ -x "$build/tests/$t" ] || { echo "$t: not carried"; continue; }
        "$build/tests/$t" --gtest_brief=1 > "$log/$t.log" 2>&1
        echo "$t: exit $?; $(grep -E '^\[  (PASSED|FAILED)  \]' "$log/$t.log" | tr '\n' ' ')"
      done ;;
    sanitize)
      printf 'receivers = "200,720,200:1700,720,200:32"\n[[shot]]\nsource = "600,720,300"\n[[shot]]\nsource = "900,720,300"\n[[shot]]\nsource = "1200,720,300"\n' \
        > "$log/survey.toml"
      for tool in memcheck racecheck; do
        compute-sanitizer --tool $tool --error-exitcode 9 "$build/tests/seis_tests_Cuda" --gtest_brief=1 \
          --gtest_filter='*WaveLargestMagnitude*:*WaveNewShot*' > "$log/$tool-tests.log" 2>&1
        echo "$tool tests: exit $?; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/$tool-tests.log" | tail -1)"
        compute-sanitizer --tool $tool --error-exitcode 9 "$build/app/seis-wave-serial" "${small[@]}" \
          --output "/tmp/$tool-run" > "$log/$tool-run.log" 2>&1
        echo "$tool seis-wave: exit $?; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/$tool-run.log" | tail -1)"
        compute-sanitizer --tool $tool --error-exitcode 9 "$build/app/seis-wave-serial" "${small[@]}" \
          --survey "$log/survey.toml" --output "/tmp/$tool-survey" > "$log/$tool-survey.log" 2>&1
        echo "$tool survey: exit $?; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/$tool-survey.log" | tail -1)"
      done ;;
    ab)
      base=$(ls .device-carry/base/seis-wave-serial-*)
      args=(--benchmark --quiet --grid 512 --model layered --spacing 20 --ndamp 27 --radius 4 --duration 0.161
            --strategy unified)
      for round in 1 2 3; do
        for exe in "$base" "$build/app/seis-wave-serial"; do
          name=$(basename "$exe")
          "$exe" "${args[@]}" --output "/tmp/ab-$name-$round" > "$log/ab-$name-$round.log" 2>&1
          echo "round $round, $name: $(grep "^done" "$log/ab-$name-$round.log")"
        done
      done ;;
  esac
done
tar -C "$log" -czf "$OUT/watch-check.tar.gz" .

#!/usr/bin/env bash
# Runs on the NVIDIA H100 machine (the device tool) over build trees built on a developer machine with nvcc 13
# (carried as build/cuda, build/cuda-ampere-jit, or the binaries alone: BUILD=DIR names a folder holding perf/,
# app/, tests/ and lib/, the Debian shared libraries seis-wave needs). Results and logs go to $OUT.
# usage: perf/device/h100.sh STAGE...
#   info       nvidia-smi, the SASS architectures in the binaries
#   tests      every CUDA test binary of the cuda preset (gtest directly: the H100 machine's CMake differs from the
#              one that wrote build/cuda's ctest files, and its ctest cannot read them)
#   sanitize   compute-sanitizer memcheck and racecheck over the CUDA test binary
#   bench ARGS seis-bench with ARGS (up to the next stage name), JSON/CSV into $OUT
#   jit        the same seis-bench cases native (sm_90) and through PTX JIT (sm_80 build)
#   ncu R K,.. perf/ncu_report.py: DRAM bytes per kernel at 512^3 for radius R and kernels K
#   resources  cuobjdump --dump-resource-usage of seis-bench (input of perf/resource_report.py)
#   wave ARGS  seis-wave --benchmark with ARGS (up to the next stage name); its run.json and log into $OUT
#   ncu-wave ARGS  ncu (speed of light, occupancy, warp states, launch) of the step kernels of a short
#              seis-wave run with ARGS (up to the next stage name; no --duration): the 5th and 6th launches
#   sanitize-wave K,.. STRATEGY  compute-sanitizer memcheck and racecheck over small seis-wave runs of kernels K
#              (R = 4 and 8, the default tile and a 12x3 tile walking 7 planes, 12x1 at R = 8)
set -uo pipefail
root=$(pwd)
# Everything is collected here and packed into one archive under $OUT at the end (the device tool brings back
# at most 8 files).
out=$(mktemp -d /tmp/seis-device.XXXX)
# ctest files name the developer machine's absolute paths.
[ -e /work/main ] || { mkdir -p /work && ln -s "$root" /work/main; }
export PATH=/usr/local/cuda/bin:$PATH
build=${BUILD:-build/cuda}
export LD_LIBRARY_PATH=$root/$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
status=0
stages=(info tests sanitize sanitize-wave bench jit ncu ncu-wave resources wave)
is_stage() { local s; for s in "${stages[@]}"; do [ "$1" = "$s" ] && return 0; done; return 1; }

while [ $# -gt 0 ]; do
  stage=$1; shift
  case "$stage" in
    info)
      nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv | tee "$out/gpu.txt"
      cuobjdump --list-elf $build/perf/seis-bench | sed 's/.*\.\(sm_[0-9a-z]*\)\..*/\1/' | sort | uniq -c | tee -a "$out/gpu.txt" ;;
    tests)
      for test in $build/tests/seis_core_tests $build/tests/seis_io_tests $build/tests/seis_tests_Cuda; do
        "$test" --gtest_brief=1 > "$out/$(basename "$test").log" 2>&1
        rc=$?
        echo "$(basename "$test"): exit $rc; $(grep -E '^\[  (PASSED|FAILED)  \]' "$out/$(basename "$test").log" | tr '\n' ' ')"
        [ "$rc" -eq 0 ] || status=1
      done ;;
    sanitize)
      for tool in memcheck racecheck; do
        compute-sanitizer --tool "$tool" --error-exitcode 3 $build/tests/seis_tests_Cuda \
          --gtest_brief=1 ${SANITIZE_FILTER:+--gtest_filter=$SANITIZE_FILTER} > "$out/sanitizer-$tool.log" 2>&1
        rc=$?
        echo "compute-sanitizer $tool: exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizer-$tool.log" | tail -n 1)"
        [ "$rc" -eq 0 ] || status=1
      done ;;
    ncu-wave)
      args=()
      while [ $# -gt 0 ] && ! is_stage "$1"; do args+=("$1"); shift; done
      { echo "== seis-wave ${args[*]}"
        ncu --clock-control none --kernel-name-base demangled -k 'regex:Step|WaveUpdate' -s 4 -c 2 \
          --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats \
          $build/app/seis-wave "${args[@]}" --duration 0.03 --quiet --output "$out/ncu-run"; } >> "$out/ncu-wave.txt" 2>&1 \
        || status=1
      rm -rf "$out/ncu-run" ;;
    sanitize-wave)
      kernels=$1 strategy=$2; shift 2
      for kernel in ${kernels//,/ }; do
        for radius in 4 8; do
          for tile in "" "--tile 12x$((radius > 4 ? 1 : 3)) --nw 7"; do
            for tool in memcheck racecheck; do
              log="$out/sanitize-wave-$kernel-R$radius${tile:+-tile}-$tool.log"
              compute-sanitizer --tool "$tool" --error-exitcode 3 $build/app/seis-wave --grid 45x38x33 --ndamp 6 \
                --radius "$radius" --kernel "$kernel" --strategy "$strategy" $tile --duration 0.03 --quiet \
                --output "$out/sanitize-run" > "$log" 2>&1
              rc=$?
              echo "$kernel R=$radius ${tile:-default tile} $tool: exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -n 1)" | tee -a "$out/sanitize-wave.txt"
              [ "$rc" -eq 0 ] || status=1
            done
          done
        done
      done
      rm -rf "$out/sanitize-run" ;;
    bench)
      args=()
      while [ $# -gt 0 ] && ! is_stage "$1"; do args+=("$1"); shift; done
      n=$(ls "$out"/bench-*.json 2>/dev/null | wc -l)
      $build/perf/seis-bench -q --json "$out/bench-$n.json" --csv "$out/bench-$n.csv" "${args[@]}" \
        | tee "$out/bench-$n.txt" || status=1 ;;
    jit)
      for build in cuda cuda-ampere-jit; do
        build/$build/perf/seis-bench -q --kernels naive,x_vec,xyz_fused --radius 4 --grid 512 \
          --json "$out/jit-$build.json" | tee "$out/jit-$build.txt" || status=1
      done ;;
    resources)
      cuobjdump --dump-resource-usage $build/perf/seis-bench > "$out/resource-usage-cuda.txt" || status=1 ;;
    ncu)
      radius=$1 kernels=$2; shift 2
      python3 perf/ncu_report.py $build/perf/seis-bench --kernels "$kernels" --radius "$radius" --out "$out" \
        || status=1 ;;
    wave)
      args=()
      while [ $# -gt 0 ] && ! is_stage "$1"; do args+=("$1"); shift; done
      n=$(ls -d "$out"/wave-*/ 2>/dev/null | wc -l)
      $build/app/seis-wave --benchmark --quiet --output "$out/wave-$n" "${args[@]}" > "$out/wave-$n.log" 2>&1 || status=1
      rm -f "$out/wave-$n/seismogram.sgy" "$out/wave-$n/shot-gather.png"
      echo "wave-$n: ${args[*]}: $(grep -E '^done|seis-wave:' "$out/wave-$n.log" | tail -n 1)" | tee -a "$out/wave-summary.txt" ;;
    *) echo "unknown stage '$stage'" >&2; exit 2 ;;
  esac
done
tar -czf "${OUT:-$root}/device-results.tar.gz" -C "$out" .
exit $status

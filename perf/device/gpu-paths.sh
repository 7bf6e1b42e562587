#!/usr/bin/env bash
# The test list of the code that runs only on GPUs, run per change on a 2-GPU machine of the device tool
# (nvidia-h100-x2 / nvidia-h200-x2): each path, the tests that exercise it, PASS or FAIL. The CUDA + MPI build and
# Open MPI's runtime are carried as perf/device/multi-gpu.sh describes (BUILD, MPI; mpi-env.sh). One line per path
# to stdout and to $OUT/gpu-paths.txt, the logs in $OUT/gpu-paths.tar.gz; perf/results/gpu-paths/ keeps each run's
# lines under its commit. docs/architecture.md lists the same paths.
# usage: perf/device/gpu-paths.sh [PATH_NAME...]   (none: every path)
set -uo pipefail
. "$(dirname "$0")/mpi-env.sh"
# The test binaries name the developer machine's source tree (their test data).
[ -e /work/main ] || { mkdir -p /work && ln -s "$(pwd)" /work/main; }
logs=$(mktemp -d /tmp/gpu-paths.XXXX)
tests=$build/tests/seis_tests_Cuda
status=0

# gtest PATH FILTER: the CUDA tests matching FILTER.
gtest() {
  "$tests" --gtest_brief=1 --gtest_filter="$2" > "$logs/$1.log" 2>&1
}
# bitwise PATH RANKS DECOMPOSITION ARGS...: seis-wave on RANKS GPUs against one GPU, the seismograms byte for byte
# (a source beside both splits, 40 receivers on a line through every part: a wrong halo changes them).
bitwise() {
  local name=$1 ranks=$2 decomposition=$3; shift 3
  local common=(--grid 96x112x80 --ndamp 8 --duration 0.25 --source 960,1100,790
                --receivers 300,300,300:1600,1900,1300:40 --quiet "$@")
  mpi_run -np 1 "$build/app/seis-wave" "${common[@]}" --output "$logs/$name-one" > "$logs/$name.log" 2>&1 &&
    mpi_run -np "$ranks" "$build/app/seis-wave" "${common[@]}" --decomposition "$decomposition" \
      --output "$logs/$name-many" >> "$logs/$name.log" 2>&1 &&
    cmp "$logs/$name-one/seismogram.sgy" "$logs/$name-many/seismogram.sgy" >> "$logs/$name.log" 2>&1
}
# sanitized PATH FILTER: compute-sanitizer memcheck and racecheck over the CUDA tests matching FILTER.
sanitized() {
  local tool
  for tool in memcheck racecheck; do
    compute-sanitizer --tool "$tool" --error-exitcode 3 "$tests" --gtest_brief=1 --gtest_filter="$2" \
      >> "$logs/$1.log" 2>&1 || return 1
  done
}

# name | what runs only on GPUs | check
paths=(
  "team-tile-engine|the team tile engine's variants (a team per tile, register window, staged y), every radius, tiles that divide no grid|gtest team-tile-engine *EveryKernel*:*OversizedTilesAreRefused*"
  "gpu-tile-defaults|the GPU tile defaults and their balancing over the SMs (many blocks), every strategy and code shape|gtest gpu-tile-defaults *WaveShapes*:*WaveStrategiesMatchReference*"
  "transposed-y-slab|the seven strategy's y slabs walking rows through the y-z transposed view (tile engine on GPUs)|gtest transposed-y-slab *WaveStrategiesMatchReference*:*WavePartsMatchWhole*:*TransposedView*"
  "gpu-scratch-sizing|team scratch (shared memory) sized per tile and radius; tiles over the limit refused|sanitized gpu-scratch-sizing *EveryKernelMatchesReference*:*OversizedTilesAreRefused*"
  "imaging-on-gpu|the imaging update fused in the receiver's step, Born weights, the adjoint's layer terms|sanitized imaging-on-gpu *Correlation*:*Migration*:*BornOnTheStepEngine*"
  "pinned-staging|halos through page-locked host buffers between 2 GPUs (--halo-transport staged)|bitwise pinned-staging 2 1x2x1 --halo-transport staged"
  "ipc-halos|halos written GPU to GPU through CUDA IPC (--halo-transport direct), y and z faces|bitwise ipc-halos 2 1x1x2 --halo-transport direct"
)
only=("$@")
for entry in "${paths[@]}"; do
  IFS='|' read -r name what check <<< "$entry"
  if [ ${#only[@]} -gt 0 ] && [[ ! " ${only[*]} " == *" $name "* ]]; then continue; fi
  start=$SECONDS
  # shellcheck disable=SC2086  # the check is a function and its words
  if $check; then result=PASS; else result=FAIL status=1; fi
  echo "$result $name ($((SECONDS - start)) s): $what" | tee -a "$OUT/gpu-paths.txt"
done
rm -rf "$logs"/*-one "$logs"/*-many
tar -C "$logs" -czf "$OUT/gpu-paths.tar.gz" .
exit $status

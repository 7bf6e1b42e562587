#!/usr/bin/env bash
# Runs on one GPU: the variable-density step at 512^3 (R = 4, Gardner's density of the layered model, free surface)
# A/B, ROUNDS rounds: the carried build's seis-wave-serial against each BINARY given (another commit's, or a variant
# of the kernel), each run's ms/step and share of its copy yardstick, and their seismograms compared bit for bit.
# usage: [RADIUS=4] [DURATION=0.161] perf/device/density-ab.sh ROUNDS BINARY...   (BUILD as mpi-env.sh)
set -uo pipefail
. perf/device/mpi-env.sh
rounds=$1
shift
args=(--model layered --grid 512 --spacing 20 --ndamp 27 --radius "${RADIUS:-4}" --strategy unified --density gardner
      --top free --quiet --overwrite --duration "${DURATION:-0.161}" --benchmark)
for round in $(seq "$rounds"); do
  for binary in "$build/app/seis-wave-serial" "$@"; do
    name=$(basename "$binary")
    "$binary" "${args[@]}" --output "/tmp/ab-$name" > "/tmp/ab-$name.log" 2>&1
    echo "R ${RADIUS:-4} round $round $name: exit $?, $(grep -oE '^done: .*' "/tmp/ab-$name.log")"
  done
done
for binary in "$@"; do
  cmp -s "/tmp/ab-seis-wave-serial/seismogram.sgy" "/tmp/ab-$(basename "$binary")/seismogram.sgy" &&
    echo "$(basename "$binary"): seismogram bitwise the build's" || echo "$(basename "$binary"): seismogram differs"
done

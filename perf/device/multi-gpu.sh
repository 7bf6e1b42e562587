#!/usr/bin/env bash
# Runs on a multi-GPU machine of the device tool (nvidia-h100-x2/-x4, nvidia-h200-x2/-x4): seis-wave built with
# SEIS_MPI=ON for CUDA (BUILD, default .device-carry/cuda-mpi: app/seis-wave and lib/), under Debian's Open MPI
# runtime carried as perf/device/mpi-bundle.sh makes it (MPI, default .device-carry/mpi). One rank per GPU. Each
# case's run.json, seismogram and log go to NAME/ in $OUT/multi-gpu.tar.gz; one line per case to stdout.
# usage: perf/device/multi-gpu.sh NAME:RANKS:DECOMPOSITION:GRID[:EXTRA ARGS] ... [-- seis-wave arguments for all]
#   (DECOMPOSITION "default": seis-wave's own choice, no --decomposition)
#   e.g. w2:2:1x2x1:512x1024x512  w2s:2:1x2x1:512x1024x512:--halo-transport staged
set -uo pipefail
. "$(dirname "$0")/mpi-env.sh"
cases=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do cases+=("$1"); shift; done
[ "${1:-}" != "--" ] || shift
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
nvidia-smi topo -m | head -8
status=0
for c in "${cases[@]}"; do
  IFS=: read -r name ranks decomposition grid extra <<< "$c"
  mkdir -p "$OUT/$name"
  # DECOMPOSITION "default": no --decomposition, seis-wave's own choice (run.json names it).
  split=(--decomposition "$decomposition")
  [ "$decomposition" != default ] || split=()
  # shellcheck disable=SC2086  # EXTRA is a list of words
  mpi_run -np "$ranks" "$build/app/seis-wave" --benchmark --quiet --grid "$grid" "${split[@]}" \
    --output "$OUT/$name" "$@" ${extra:-} > "$OUT/$name/log.txt" 2>&1
  rc=$?
  [ $rc -eq 0 ] || status=1
  echo "$name ($ranks ranks, $decomposition, $grid ${extra:-}): exit $rc; $(grep -E '^done|seis-wave: ' "$OUT/$name/log.txt" | tail -1)"
  echo "  seismogram md5 $(md5sum < "$OUT/$name/seismogram.sgy" 2>/dev/null | cut -c1-12)," \
    "$(grep -o '"parts_x_by_y_by_z": "[0-9x]*"' "$OUT/$name/run.json" 2>/dev/null)"
done
# The device tool brings back few files: one archive.
tar -C "$OUT" -czf /tmp/multi-gpu.tar.gz . && find "$OUT" -mindepth 1 -delete && mv /tmp/multi-gpu.tar.gz "$OUT/"
exit $status

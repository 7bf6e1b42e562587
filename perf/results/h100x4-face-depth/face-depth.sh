#!/usr/bin/env bash
# Runs on nvidia-h100-x4 / nvidia-h200-x4: the face layers' depth (perf/NOTES.md 107). An experiment build reads
# SEIS_FACE_DEPTH=z,y,x (points; R at least); base/seis-wave-COMMIT is the commit before, whose layers are R deep.
# Each case once per round, rounds alternating, every efficiency against the one-GPU run of the same round.
# usage: perf/device/face-depth.sh ROUNDS   (results in $OUT/face-depth.tar.gz, one line per run on stdout)
set -uo pipefail
mkdir -p .device-carry && tar -xJf .device-pack/carry.tar.xz -C .device-carry
. perf/device/mpi-env.sh
base=$(ls .device-carry/base/seis-wave-* | head -1)
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
common=(--model layered --spacing 20 --ndamp 27 --radius 4 --duration 0.161 --strategy unified --benchmark --quiet)
one() {  # one NAME BINARY RANKS DECOMPOSITION GRID [DEPTH]
  local name=$1 binary=$2 ranks=$3 decomposition=$4 grid=$5 depth=${6:-}
  mkdir -p "$OUT/$name"
  SEIS_FACE_DEPTH=$depth mpi_run -x SEIS_FACE_DEPTH -np "$ranks" "$binary" --grid "$grid" \
    --decomposition "$decomposition" --output "$OUT/$name" "${common[@]}" > "$OUT/$name/log.txt" 2>&1
  echo "$name: exit $?; $(grep -oE '^done: [0-9.]+ ms/step' "$OUT/$name/log.txt") $(grep -oE 'halos by [a-z-]+: [0-9.]+ ms/step' "$OUT/$name/log.txt"); md5 $(md5sum < "$OUT/$name/seismogram.sgy" | cut -c1-12)"
}
new=$build/app/seis-wave
for round in $(seq "${1:-2}"); do
  echo "=== round $round ($(date -u +%H:%M:%S))"
  one "r$round-b512-base" "$base" 1 1x1x1 512
  one "r$round-b512-new" "$new" 1 1x1x1 512
  one "r$round-w512-4-base" "$base" 4 1x2x2 512x1024x1024
  one "r$round-w512-4-new" "$new" 4 1x2x2 512x1024x1024
  one "r$round-w512-4-new-4" "$new" 4 1x2x2 512x1024x1024 4,4,4
  one "r$round-w512-4-new-32" "$new" 4 1x2x2 512x1024x1024 32,16,32
  one "r$round-w512-4-new-8" "$new" 4 1x2x2 512x1024x1024 8,8,32
  one "r$round-w512-2-base" "$base" 2 1x2x1 512x1024x512
  one "r$round-w512-2-new" "$new" 2 1x2x1 512x1024x512
  one "r$round-w512-4x-base" "$base" 4 2x2x1 1024x1024x512
  one "r$round-w512-4x-new" "$new" 4 2x2x1 1024x1024x512
  one "r$round-w512-4x-new-64" "$new" 4 2x2x1 1024x1024x512 16,8,64
  one "r$round-s1024-4-base" "$base" 4 1x2x2 1024
  one "r$round-s1024-4-new" "$new" 4 1x2x2 1024
  [ "$round" -gt 1 ] || one "r$round-b1024-base" "$base" 1 1x1x1 1024
done
find "$OUT" -name '*.sgy' -delete -o -name '*.png' -delete
tar -C "$OUT" -czf /tmp/face-depth.tar.gz . && find "$OUT" -mindepth 1 -delete && mv /tmp/face-depth.tar.gz "$OUT/"

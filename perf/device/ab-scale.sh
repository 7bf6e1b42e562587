#!/usr/bin/env bash
# Runs on nvidia-h100-x4 / nvidia-h200-x4: issue 35's scaling cases for two builds in one lease, rounds alternating,
# every efficiency against the one-GPU run of the same round: .device-carry/base/seis-wave-COMMIT (the commit
# before) and the carried build (perf/device/carry-build.sh), with the Open MPI bundle, as scale-out.sh.
# usage: perf/device/ab-scale.sh ROUNDS [768]   (768 adds the 768^3-per-GPU case once; results in
#        $OUT/ab-scale.tar.gz, one line per run on stdout)
set -uo pipefail
mkdir -p .device-carry && tar -xJf .device-pack/carry.tar.xz -C .device-carry
. perf/device/mpi-env.sh
base=$(ls .device-carry/base/seis-wave-* | head -1)
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
common=(--model layered --spacing 20 --ndamp 27 --radius 4 --duration 0.161 --strategy unified --benchmark --quiet)
one() {  # one NAME BINARY RANKS DECOMPOSITION GRID
  local name=$1 binary=$2 ranks=$3 decomposition=$4 grid=$5
  mkdir -p "$OUT/$name"
  mpi_run -np "$ranks" "$binary" --grid "$grid" --decomposition "$decomposition" --output "$OUT/$name" \
    "${common[@]}" > "$OUT/$name/log.txt" 2>&1
  echo "$name: exit $?; $(grep -oE '^done: [0-9.]+ ms/step' "$OUT/$name/log.txt") $(grep -oE 'halos by [a-z-]+: [0-9.]+ ms/step' "$OUT/$name/log.txt"); md5 $(md5sum < "$OUT/$name/seismogram.sgy" | cut -c1-12)"
}
new=$build/app/seis-wave
for round in $(seq "$1"); do
  echo "=== round $round ($(date -u +%H:%M:%S))"
  for which in base new; do
    binary=$base && [ $which = base ] || binary=$new
    one "r$round-b512-$which" "$binary" 1 1x1x1 512
    one "r$round-w512-2-$which" "$binary" 2 1x2x1 512x1024x512
    one "r$round-w512-4-$which" "$binary" 4 1x2x2 512x1024x1024
    one "r$round-w512-4x-$which" "$binary" 4 2x2x1 1024x1024x512
    one "r$round-s1024-4-$which" "$binary" 4 1x2x2 1024
    one "r$round-s1024-4x-$which" "$binary" 4 2x2x1 1024
  done
done
one b1024 "$new" 1 1x1x1 1024
if [ "${2:-}" = 768 ]; then
  one b768 "$new" 1 1x1x1 768
  one w768-4 "$new" 4 1x2x2 768x1536x1536
fi
find "$OUT" -name '*.sgy' -delete -o -name '*.png' -delete
tar -C "$OUT" -czf /tmp/ab-scale.tar.gz . && find "$OUT" -mindepth 1 -delete && mv /tmp/ab-scale.tar.gz "$OUT/"

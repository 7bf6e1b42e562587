#!/usr/bin/env bash
# Runs on a machine of 2 or 4 GPUs (nvidia-h200-x2/-x4, nvidia-h100-x2/-x4): a density that varies (Gardner's, of
# the layered model) under a free surface, decomposed over GPUs, with the carried CUDA + MPI build and Open MPI bundle
# (mpi-env.sh). Bitwise: a small grid on 1, 2 and 4 GPUs (1x2x1, 1x1x2; 1x2x2, 2x2x1), each seismogram's md5. Weak
# scaling at 512^3 a GPU (1x1x1, 1x2x1; 1x2x2), ROUNDS rounds, the 4-GPU cases where the machine has 4, each
# efficiency against the round's one-GPU run, with the one-GPU run of the build before
# (.device-carry/base/seis-wave-serial-COMMIT, which cannot decompose a density) beside it in each round.
# usage: perf/device/density-scale.sh ROUNDS   (results in $OUT/density-scale.tar.gz, one line per run on stdout)
set -uo pipefail
. perf/device/mpi-env.sh
base=$(ls .device-carry/base/seis-wave-serial-* | head -1)
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
common=(--model layered --spacing 20 --ndamp 27 --radius 4 --duration 0.161 --strategy unified --density gardner
        --top free --benchmark --quiet)
one() {  # one NAME RANKS DECOMPOSITION GRID [BINARY]: BINARY (one process) instead of the build's MPI seis-wave
  local name=$1 ranks=$2 decomposition=$3 grid=$4 binary=${5:-}
  mkdir -p "$OUT/$name"
  if [ -n "$binary" ]; then
    "$binary" --grid "$grid" --output "$OUT/$name" "${common[@]}" > "$OUT/$name/log.txt" 2>&1
  else
    mpi_run -np "$ranks" "$build/app/seis-wave" --grid "$grid" --decomposition "$decomposition" \
      --output "$OUT/$name" "${common[@]}" > "$OUT/$name/log.txt" 2>&1
  fi
  echo "$name: exit $?; $(grep -oE '^done: [0-9.]+ ms/step' "$OUT/$name/log.txt") $(grep -oE 'halos by [a-z-]+: [0-9.]+ ms/step' "$OUT/$name/log.txt"); md5 $(md5sum < "$OUT/$name/seismogram.sgy" | cut -c1-12)"
}
one bit-1 1 1x1x1 200x180x160
one bit-2 2 1x2x1 200x180x160
one bit-2z 2 1x1x2 200x180x160
if [ "$gpus" -ge 4 ]; then
  one bit-4 4 1x2x2 200x180x160
  one bit-4x 4 2x2x1 200x180x160
fi
for round in $(seq "$1"); do
  echo "=== round $round ($(date -u +%H:%M:%S))"
  one "r$round-w1-base" 1 1x1x1 512 "$base"
  one "r$round-w1" 1 1x1x1 512
  one "r$round-w2" 2 1x2x1 512x1024x512
  [ "$gpus" -lt 4 ] || one "r$round-w4" 4 1x2x2 512x1024x1024
done
find "$OUT" -name '*.sgy' -delete -o -name '*.png' -delete
tar -C "$OUT" -czf /tmp/density-scale.tar.gz . && find "$OUT" -mindepth 1 -delete && mv /tmp/density-scale.tar.gz "$OUT/"

#!/usr/bin/env bash
# README's first command: install what is missing, build the default (OpenMP) preset, run seis-bench on a small
# grid (96^3, R = 4, every variant, fewer samples than seis-bench's default so it ends in well under a minute on
# 2 cores) and print its table. Extra arguments go to seis-bench and override these (e.g. --grid 256 --samples 20).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh host
cmake --preset openmp
cmake --build --preset openmp
mkdir -p build/openmp/results
# Grid and radius lists accumulate in seis-bench, so they are defaults only when the caller gives none.
defaults=()
[[ " $* " == *" --grid "* || " $* " == *" -g "* ]] || defaults+=(--grid 96)
[[ " $* " == *" --radius "* || " $* " == *" -r "* ]] || defaults+=(--radius 4)
exec build/openmp/perf/seis-bench "${defaults[@]}" --samples 10 --batch 2 --warmup 2 \
  --json build/openmp/results/seis-bench.json --csv build/openmp/results/seis-bench.csv "$@"

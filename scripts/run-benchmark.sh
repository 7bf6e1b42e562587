#!/usr/bin/env bash
# README's first command: install what is missing, build the default (OpenMP) preset, run seis-bench on a small
# grid and print its table. Extra arguments go to seis-bench (e.g. --kernels 'fused*' --grid 256).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh host
cmake --preset openmp
cmake --build --preset openmp
mkdir -p build/openmp/results
exec build/openmp/perf/seis-bench --grid 128 --radius 4 --json build/openmp/results/seis-bench.json \
  --csv build/openmp/results/seis-bench.csv "$@"

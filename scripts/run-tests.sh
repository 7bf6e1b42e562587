#!/usr/bin/env bash
# README's second command: install what is missing, configure, build and run the whole test suite (ctest) on the
# default OpenMP preset (Serial and OpenMP backends).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh host
cmake --workflow --preset openmp

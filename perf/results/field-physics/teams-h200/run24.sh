#!/usr/bin/env bash
# The density step at R = 4 with 2 teams an SM (128 registers, no spills) against the build's 3 (80, spilled), two
# rounds; then the instruction mixes of the density and TTI steps (run23.sh).
set -uo pipefail
rm -rf .device-carry; tar -xJf .device-pack/carry.tar.xz
export BUILD=.device-carry/cuda
bash perf/device/density-ab.sh 2 .device-carry/var/seis-wave-tps2
bash .device-pack/run23.sh

#!/usr/bin/env bash
# The density step with 2 teams an SM up to R = 4 (128 registers): its checks (perf/device/density.sh), then A/B
# against the previous build (base: 3 teams, 80 registers) and a variant (ty8: 8-row tiles, 4 teams of 128) at R = 4,
# and against base at R = 1, 2, 3.
set -uo pipefail
rm -rf .device-carry; tar -xJf .device-pack/carry.tar.xz
export BUILD=.device-carry/cuda
bash perf/device/density.sh
bash perf/device/density-ab.sh 2 .device-carry/var/seis-wave-base .device-carry/var/seis-wave-ty8
for r in 1 2 3; do RADIUS=$r bash perf/device/density-ab.sh 2 .device-carry/var/seis-wave-base; done

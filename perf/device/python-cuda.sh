#!/usr/bin/env bash
# Runs on the GPU machine: the Python tests (python/tests) on a CUDA build's module, carried by carry-build.sh into
# CARRY, under Debian's python3 and numpy, carried by python-bundle.sh into PYTHON (the machine's own python3 is
# another version, which the module cannot load). The forward test compares with CARRY's one-process seis-wave
# (seis-wave-serial where the build has MPI).
# usage: perf/device/python-cuda.sh CARRY PYTHON BASETEMP
set -euo pipefail
carry=$1 python=$2 basetemp=$3
seis_wave=$carry/app/seis-wave-serial
[ -x "$seis_wave" ] || seis_wave=$carry/app/seis-wave
export PYTHONHOME=$python/usr PYTHONPATH=$carry/python LD_LIBRARY_PATH=$python/deps:$carry/lib:${LD_LIBRARY_PATH:-}
"$python/usr/bin/python3" -c 'import seistencil; print("seistencil backends:", seistencil.backends())'
"$python/usr/bin/python3" -m pytest -q -p no:cacheprovider python/tests --seis-wave "$seis_wave" \
  --basetemp "$basetemp"

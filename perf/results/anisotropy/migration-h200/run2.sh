#!/usr/bin/env bash
# Issue 58: the TTI shot's forward modelling and its migration with each imaging condition, timed by the migration's
# own JSON (forward and backward passes), one round; everything in one archive.
set -uo pipefail
tar -xJf .device-pack/carry.tar.xz
export BUILD=.device-carry/cuda
. perf/device/mpi-env.sh
exe=$build/app/seis-wave
base=(--grid 512 --spacing 10 --model homogeneous:2000 --ndamp 20 --f0 10 --source 2560,2560,100
      --receivers 0,2560,100:5110,2560,100:64 --duration 0.5 --quiet --overwrite)
tti=(--epsilon 0.2 --delta 0.1 --tilt 30 --azimuth 20)
mkdir -p /tmp/r
"$exe" "${base[@]}" "${tti[@]}" --benchmark --output /tmp/r/fwd > /tmp/r/fwd.log 2>&1
echo "forward: exit $? $(grep -oE '^done: .*' /tmp/r/fwd.log)"
for condition in correlation adjoint; do
  "$exe" "${base[@]}" "${tti[@]}" --migrate /tmp/r/fwd/seismogram.sgy --imaging-condition $condition \
    --output /tmp/r/$condition > /tmp/r/$condition.log 2>&1
  echo "$condition: exit $?"
  /usr/bin/python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(m['shot'], m['migration'])" /tmp/r/$condition/migration.json
done
rm -f /tmp/r/*/*.sgy /tmp/r/*/*.png
tar -czf "$OUT/tti-rtm.tar.gz" -C /tmp r

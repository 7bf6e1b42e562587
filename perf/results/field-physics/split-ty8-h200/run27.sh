#!/usr/bin/env bash
# Timing against the last measured builds in the same lease: the plain step's benchmark and one 512^3 shot's exact
# adjoint imaging every step (prev: d65900a's kernels, measured equal to 57f62e9's), two rounds each, image md5; the
# density step at R = 4 against f1447d1's (var/seis-wave-base), two rounds, seismograms compared bit for bit.
set -uo pipefail
[ -d .device-carry/cuda ] || tar -xJf .device-pack/carry.tar.xz
export BUILD=.device-carry/cuda; . perf/device/mpi-env.sh
json() { /usr/bin/python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
n=512 size=5110
one=(--grid $n --spacing 10 --ndamp 16 --radius 4 --duration 0.6 --dt 0.001 --trace-dt 0.001 --quiet --model layered
     --source "$((200 + (size - 400) / 8)),$((size / 2)),100" --receivers "200,$((size / 2)),200:$((size - 200)),$((size / 2)),200:$(((size - 400) / 20 + 1))")
rm -rf /tmp/fwd; .device-carry/cuda/app/seis-wave-serial "${one[@]}" --output /tmp/fwd > /tmp/fwd.log 2>&1 || tail -3 /tmp/fwd.log
for round in 1 2; do for b in prev cuda; do
  .device-carry/$b/app/seis-wave-serial "${one[@]}" --benchmark --output /tmp/bench-$b > /dev/null 2>&1
  echo "forward round $round $b: ms a step $(json /tmp/bench-$b/run.json "round(m['performance']['seconds_per_step'] * 1e3, 4)")"; rm -rf /tmp/bench-$b
done; done
for round in 1 2; do for b in prev cuda; do
  .device-carry/$b/app/seis-wave-serial "${one[@]}" --migrate /tmp/fwd/seismogram.sgy --imaging-condition adjoint --imaging-interval 1 --output /tmp/adj-$b > /tmp/adj.log 2>&1 || tail -3 /tmp/adj.log
  echo "R 4 round $round $b: (fwd, bwd, total) $(json /tmp/adj-$b/migration.json "[(round(s['forward_seconds'], 3), round(s['backward_seconds'], 3), round(s['seconds'], 2)) for s in m['shot']]") image $(md5sum < /tmp/adj-$b/image.sgy)"
  rm -rf /tmp/adj-$b
done; done
bash perf/device/density-ab.sh 2 .device-carry/var/seis-wave-base

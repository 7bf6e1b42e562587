#!/usr/bin/env bash
# Review mends against d65900a (prev) in the same lease: the plain step's benchmark (512^3, R = 4, two rounds), one
# 512^3 shot's exact adjoint imaging every step (two rounds, image md5), and the carrying steps at R = 8 (200 steps),
# where 16 x 8 tiles stay: cb30aba (prev0), d65900a (prev) and this build (cuda).
set -uo pipefail
rm -rf .device-carry; tar -xJf .device-pack/carry.tar.xz
export BUILD=.device-carry/cuda; . perf/device/mpi-env.sh
json() { /usr/bin/python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader
n=512 size=5110
shot() {
  one=(--grid $n --spacing 10 --ndamp 16 --radius $1 --duration $2 --dt $3 --trace-dt $3 --quiet --model layered
       --source "$((200 + (size - 400) / 8)),$((size / 2)),100" --receivers "200,$((size / 2)),200:$((size - 200)),$((size / 2)),200:$(((size - 400) / 20 + 1))")
}
shot 4 0.6 0.001
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
shot 8 0.2 0.0008
rm -rf /tmp/fwd; .device-carry/cuda/app/seis-wave-serial "${one[@]}" --output /tmp/fwd > /tmp/fwd.log 2>&1 || tail -3 /tmp/fwd.log
for round in 1 2; do for b in prev0 prev cuda; do
  .device-carry/$b/app/seis-wave-serial "${one[@]}" --migrate /tmp/fwd/seismogram.sgy --imaging-condition adjoint --imaging-interval 1 --output /tmp/adj-$b > /tmp/adj.log 2>&1 || tail -3 /tmp/adj.log
  echo "R 8 round $round $b: (fwd, bwd, total) $(json /tmp/adj-$b/migration.json "[(round(s['forward_seconds'], 3), round(s['backward_seconds'], 3), round(s['seconds'], 2)) for s in m['shot']]") image $(md5sum < /tmp/adj-$b/image.sgy)"
  rm -rf /tmp/adj-$b
done; done

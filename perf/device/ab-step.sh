#!/usr/bin/env bash
# Runs on one GPU of the H100/H200 machines: the wave step of two builds back to back in one lease, rounds
# alternating: .device-carry/base/seis-wave-serial (the baseline commit) and the carried build's (BUILD, as
# mpi-env.sh), at 512^3 stepped with R = 4 and 8 (--benchmark: run.json's step time, its bytes and the same run's copy
# yardstick); with TOP=free the carried build again under a free surface, at the same 512^3 stepped. One line per run
# on stdout; the run.json files in $OUT/ab-step.tar.gz. The grid is the model's: 458 points and the 27-point layer
# outside them step 512^3 (BASE_GRID=512 for a baseline from before the layer moved outside the model). EXTRA: more
# flags for every run (EXTRA="--density gardner": the variable-density step of both builds).
# usage: [TOP=free] [BASE_GRID=512] [EXTRA=FLAGS] perf/device/ab-step.sh ROUNDS [STRATEGY]   (unified, two or seven)
set -uo pipefail
mkdir -p .device-carry && [ -d .device-carry/cuda-mpi ] || tar -xJf .device-pack/carry.tar.xz -C .device-carry
. perf/device/mpi-env.sh
strategy=${2:-unified}
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader | head -1
json() { /usr/bin/python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
for round in $(seq "$1"); do
  for radius in 4 8; do
    for which in base this ${TOP:+free}; do
      wave=$build/app/seis-wave-serial grid=(--grid 458)
      [ $which != base ] || wave=.device-carry/base/seis-wave-serial grid=(--grid "${BASE_GRID:-458}")
      [ $which != free ] || grid=(--grid 458x458x485 --top free)
      name=r$round-R$radius-$which
      "$wave" "${grid[@]}" --model layered --spacing 20 --ndamp 27 --radius $radius --duration 1 \
        --strategy "$strategy" ${EXTRA:-} --benchmark --quiet --source 4580,4580,600 --output "$OUT/$name" > "$OUT/$name.log" 2>&1
      echo "$name: exit $?; $(json "$OUT/$name/run.json" "'%.4f ms/step, %.1f%% of copy (%.0f GB/s), %d steps' % (1e3 * m['performance']['seconds_per_step'], m['performance']['percent_of_copy'], m['performance']['copy_gb_per_s'], m['performance']['steps_timed'])")"
      find "$OUT/$name" \( -name '*.sgy' -o -name '*.png' \) -delete
    done
  done
done
tar -C "$OUT" -czf /tmp/ab-step.tar.gz . && find "$OUT" -mindepth 1 -delete && mv /tmp/ab-step.tar.gz "$OUT/"

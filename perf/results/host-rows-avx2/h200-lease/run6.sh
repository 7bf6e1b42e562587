#!/usr/bin/env bash
# Lease 6: this tree's seis-wave (the TTI passes' per-point code moved into shared functions for the host rows; the
# density step's difference and flux shared with its host rows) against fe3ca72's build (the carry, the same GPU
# kernels' source): the TTI step at R = 4 and 8 (tti-step.sh) and the density step at R = 4, seismograms bit for bit;
# memcheck and racecheck of small TTI runs (the step under a free surface, the transposed step of an exact-adjoint
# migration) and of a density run; then the host backend on this machine's CPUs: 14689e0's OpenMP seis-wave against
# this tree's, the TTI and density steps at 256^3 (16 threads).
[ -d .device-carry/cuda ] || tar -xJf .device-pack/carry.tar.xz
export BUILD=.device-carry/cuda
. perf/device/mpi-env.sh
V=.device-carry/var
mkdir -p $V
for f in seis-wave-new seis-wave-omp-old seis-wave-omp-new; do xz -dc .device-pack/$f.xz > $V/$f && chmod +x $V/$f; done
nproc; lscpu | grep -E "Model name|Flags" | cut -c1-200
bash perf/device/tti-step.sh 1 $V/seis-wave-new > $OUT/tti-step.txt 2>&1; grep -v "^ncu" $OUT/tti-step.txt
RADIUS=4 bash perf/device/density-ab.sh 1 $V/seis-wave-new > $OUT/density-ab.txt 2>&1; tail -4 $OUT/density-ab.txt
t=(--grid 48 --spacing 20 --model layered --epsilon 0.2 --delta 0.1 --tilt 30 --azimuth 20 --quiet --overwrite
   --radius 4 --duration 0.05 --source 480,480,200 --receivers 100,480,40:860,480,40:8)
$V/seis-wave-new "${t[@]}" --output /tmp/s0 > /dev/null 2>&1
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool $V/seis-wave-new "${t[@]}" --top free --output /tmp/s1 > $OUT/$tool-tti.txt 2>&1
  echo "TTI free top $tool exit $?: $(tail -1 $OUT/$tool-tti.txt)"
  timeout 100 compute-sanitizer --tool $tool $V/seis-wave-new "${t[@]}" --migrate /tmp/s0/seismogram.sgy \
    --imaging-condition adjoint --output /tmp/s2 > $OUT/$tool-tti-adjoint.txt 2>&1
  echo "TTI adjoint migration $tool exit $?: $(tail -1 $OUT/$tool-tti-adjoint.txt)"
  timeout 100 compute-sanitizer --tool $tool $V/seis-wave-new --grid 48 --spacing 20 --model layered --density gardner \
    --top free --radius 4 --duration 0.05 --quiet --overwrite --output /tmp/s3 > $OUT/$tool-density.txt 2>&1
  echo "density $tool exit $?: $(tail -1 $OUT/$tool-density.txt)"
done
export OMP_NUM_THREADS=16
for round in 1 2; do
  for b in omp-old omp-new; do
    for extra in "--epsilon 0.2 --delta 0.1 --tilt 30 --azimuth 20" "--density gardner --top free"; do
      $V/seis-wave-$b --benchmark --grid 256 --model layered --spacing 20 --radius 4 $extra --duration 0.04 \
        --output /tmp/h-$b --overwrite > $OUT/host-$b-r$round-${extra%% *}.log 2>&1
      echo "host $b round $round ${extra%% *}: $(grep -oE '^done: .*' $OUT/host-$b-r$round-${extra%% *}.log)"
    done
  done
done

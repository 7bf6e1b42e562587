#!/usr/bin/env bash
set -uo pipefail
mkdir -p /tmp/b && tar -C /tmp/b -xJf .device-carry/bench.tar.xz
B=/tmp/b/bench/seis-bench
timeout 330 $B -q -k xyz_fused_rows,xyz_fused,xy_fused_rows,xy_fused -r 1 2 3 4 5 6 7 8 -g 256 512 1024 509x497x251 \
  --nontemporal on --no-tuned --samples 5 --verify off --json $OUT/rows-grids.json --csv $OUT/rows-grids.csv > $OUT/rows-grids.txt 2>&1
echo "bench exit $?"
for r in 4 8; do timeout 60 python3 perf/ncu_report.py $B --kernels xyz_fused_rows,xy_fused_rows --radius $r --grid 512 --out $OUT > /dev/null 2>&1; echo "ncu R=$r exit $?"; done
timeout 90 ncu --kernel-name-base demangled -k regex:TileStencil --section WarpStateStats --section Occupancy --section SpeedOfLight \
  $B -q -k xyz_fused_rows,xy_fused_rows -r 4 -g 512 --samples 1 --warmup 0 --batch 1 --verify off --nontemporal on > $OUT/ncu-stalls-rows.txt 2>&1
echo "ncu stalls exit $?"
grep -E "copy bandwidth|xyz_fused_rows|xy_fused_rows|xyz_fused |xy_fused " $OUT/rows-grids.txt | awk "{print \$1, \$2, \$3, \$(NF-3)}" | head -140
cat $OUT/ncu-R4.md $OUT/ncu-R8.md 2>/dev/null | head -30

#!/usr/bin/env bash
mkdir -p /tmp/p && tar -C /tmp/p -xJf .device-carry/pay.tar.xz final
export LD_LIBRARY_PATH=/tmp/p/final/lib
ncu --clock-control none --kernel-name-base demangled -k regex:WaveUpdate -s 7 -c 7 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats \
  /tmp/p/final/app/seis-wave --grid 512 --model layered --spacing 20 --ndamp 27 --radius 4 --duration 0.01 --quiet --strategy seven --output /tmp/nc > $OUT/ncu-stalls.txt 2>&1
grep -E "Duration|DRAM Throughput|L2 Hit|L1/TEX Hit|Mem Busy|Max Bandwidth|Issued Warp|No Eligible|Active Warps Per|Eligible Warps|Warp Cycles Per Issued|Stall|Block Size|Grid Size" $OUT/ncu-stalls.txt | sed 's/  */ /g' | head -120

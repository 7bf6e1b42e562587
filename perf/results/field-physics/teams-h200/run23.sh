#!/usr/bin/env bash
# Where the variable-density and TTI steps' instructions go (512^3, R = 4; one launch each under Nsight Compute):
# the executed SASS instructions by opcode, the instruction statistics and the source counters' hot spots.
set -uo pipefail
[ -d .device-carry/cuda ] || tar -xJf .device-pack/carry.tar.xz
export BUILD=.device-carry/cuda; . perf/device/mpi-env.sh
b=.device-carry/cuda/app/seis-wave-serial
density=(--model layered --grid 512 --spacing 20 --ndamp 27 --radius 4 --strategy unified --density gardner --top free --quiet --overwrite --duration 0.01)
tti=(--grid 512 --spacing 10 --model homogeneous:2000 --ndamp 20 --f0 10 --source 2560,2560,2560 --receivers 0,2560,100:5110,2560,100:64
     --quiet --overwrite --epsilon 0.2 --delta 0.1 --tilt 30 --azimuth 20 --source-zone 0 --radius 4 --duration 0.01)
mix() {  # name, kernel regex, launches, run...
  local name=$1 regex=$2 count=$3; shift 3
  ncu --clock-control none --kernel-name-base demangled --kernel-name "regex:$regex" --launch-skip 2 --launch-count $count \
    --section InstructionStats --section SourceCounters --section WarpStateStats --section LaunchStats \
    --metrics sass__inst_executed_per_opcode,smsp__inst_executed.sum,smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum \
    --print-metric-instances details "$@" --output /tmp/mix-$name > "$OUT/mix-$name.txt" 2>&1
  echo "$name: exit $?"
  grep -E "sass__inst_executed_per_opcode|smsp__inst_executed.sum |op_local|Registers Per|Duration" "$OUT/mix-$name.txt" | cut -c1-4000
}
mix density DensityKernel 1 "$b" "${density[@]}"
mix tti tti_pass_of 2 "$b" "${tti[@]}"

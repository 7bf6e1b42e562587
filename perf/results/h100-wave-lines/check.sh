#!/usr/bin/env bash
# Experiment/check runner (not committed): tests, sanitizers and seis-wave benchmarks of the carried binaries.
set -uo pipefail
mkdir -p /tmp/p && tar -C /tmp/p -xJf .device-carry/pay.tar.xz
F=/tmp/p/final; X=/tmp/p/exp
export LD_LIBRARY_PATH=$F/lib
o=$OUT; s=$o/summary.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee -a $s
if [ "${TESTS:-1}" = 1 ]; then
for t in seis_core_tests seis_io_tests seis_tests_Cuda; do
  $F/tests/$t --gtest_brief=1 > $o/$t.log 2>&1; echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED)' $o/$t.log | tr '\n' ' ')" | tee -a $s
done
for grid in "45x38x33 --ndamp 6" "80x38x33 --ndamp 6"; do for r in 4 8; do for strat in seven two; do for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool --error-exitcode 3 $F/app/seis-wave --grid $grid --radius $r --strategy $strat --duration 0.03 --quiet --output /tmp/sr > /tmp/sl 2>&1
  echo "sanitize $tool grid $grid R=$r $strat exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/sl | tail -n1)" | tee -a $s
done; done; done; done
fi
W="--grid 512 --model layered --spacing 20 --ndamp 27 --duration 0.161"; W2="--model layered --spacing 20 --ndamp 27 --radius 4 --duration 0.161"; B=/tmp/p/base
wave() { local name=$1 bin=$2; shift 2
  env $ENVS $bin/app/seis-wave --benchmark --quiet --output /tmp/w/$name "$@" > /tmp/w.log 2>&1
  mkdir -p $o/runs; cp /tmp/w/$name/run.json $o/runs/$name.json 2>/dev/null
  echo "$name [$ENVS] $* :: $(grep -E '^done' /tmp/w.log)" | tee -a $s; }
while read -r line; do [ -z "$line" ] && continue; eval "$line"; done < ${PLAN:-.device-carry/plan5.txt}
tar -czf $o/runs.tar.gz -C $o runs && rm -rf $o/runs
if [ "${NCU:-1}" = 1 ]; then
  env ${NCU_ENV:-} ncu --clock-control none --kernel-name-base demangled -k regex:WaveUpdate -s 7 -c 7 --section SpeedOfLight --section Occupancy --section LaunchStats \
    $F/app/seis-wave --grid 512 --model layered --spacing 20 --ndamp 27 --radius 4 --duration 0.01 --quiet --strategy seven --output /tmp/nc > $o/ncu-rows.txt 2>&1
  grep -E "Duration|DRAM Throughput|Block Size|Grid Size|Registers Per|Achieved Occ" $o/ncu-rows.txt | sed 's/  */ /g' | tee -a $s
fi

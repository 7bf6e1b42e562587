#!/usr/bin/env bash
# Runs on the H100/H200 machines: issue 38's measurements over the binaries of perf/device/carry-build.sh and the
# Open MPI bundle of perf/device/mpi-bundle.sh (both in .device-pack/carry.tar.xz, as for survey.sh).
#   tests     seis_tests_Cuda's migration, Born and wave tests, then compute-sanitizer memcheck and racecheck over
#             the migration and Born tests and the step that carries the imaging condition
#   time      one 512^3 shot (R = 4, unified, the survey rate's shot): its forward modelling (--benchmark: run.json
#             with the step's bytes and the copy yardstick) and its migration (migration.json: the forward pass and
#             the backward pass), alternating, twice
#   survey    512^3 surveys of 4 shots per GPU on 1, 2 and 4 GPUs (one GPU per shot; 1 again last): the forward
#             survey (its rate the yardstick) writes the gathers its migration survey then images
#   born      the time stage's shot modelled (--benchmark), Born-modelled (--born homogeneous:20: a perturbation at
#             every point) and migrated with each imaging condition (correlation, adjoint), alternating, twice; by
#             seis-wave-serial (one rank, no MPI), this build's and, where .device-carry/base/seis-wave-serial is
#             carried, the commit before's, alternating
#   finish    the migration survey of 4 shots per GPU on all GPUs (the survey stage's), the commit before
#             (.device-carry/base/seis-wave) and this build alternating, ROUNDS (default 2) rounds: the finishing
# usage: perf/device/rtm.sh STAGE...   (results in $OUT/rtm.tar.gz, summaries on stdout)
set -uo pipefail
mkdir -p .device-carry && tar -xJf .device-pack/carry.tar.xz -C .device-carry
. perf/device/mpi-env.sh
gpus=$(nvidia-smi -L | wc -l)
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
h=20 top=600
big=(--grid 512 --model layered --spacing $h --ndamp 27 --radius 4 --duration 2 --strategy unified --quiet)
receivers="600,5120,$top:$(((512 - 31) * h)),5120,$top:256"
shots() {  # shots FILE N: N shots along x at mid y, 600 m deep, the shared line of 256 receivers
  local file=$1 n=$2
  printf 'receivers = "%s"\n' "$receivers" > "$file"
  for s in $(seq "$n"); do printf '[[shot]]\nsource = "%d,5120,%d"\n' $(((30 + 451 * s / (n + 1)) * h)) $top >> "$file"; done
}
json() { /usr/bin/python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
wall() {  # wall NAME COMMAND...: runs it, prints its wall time
  local name=$1; shift
  local start=$(date +%s.%N)
  "$@" > "$OUT/$name.log" 2>&1
  local rc=$? end=$(date +%s.%N)
  echo "$name: exit $rc, $(awk "BEGIN{printf \"%.2f\", $end - $start}") s; $(grep -E 'done in|seis-wave: ' "$OUT/$name.log" | tail -1)"
}
for stage in "$@"; do
  echo "=== $stage ($(date -u +%H:%M:%S), $gpus GPUs)"
  case $stage in
    tests)
      "$build/tests/seis_tests_Cuda" --gtest_filter='*Migration*:*Reflector*:*Wave*:*Born*' 2>&1 | grep -E '^\[  (PASSED|FAILED)|FAILED|OK \]' | tail -30
      for tool in memcheck racecheck; do
        compute-sanitizer --tool $tool --error-exitcode 9 "$build/tests/seis_tests_Cuda" \
          --gtest_filter='*Migration*:*Reflector*:*BornOnTheStepEngine*:*WaveStepCarries*' > "$OUT/$tool.log" 2>&1
        echo "$tool over the migration tests: exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$OUT/$tool.log" | tr '\n' ' ')"
      done ;;
    time)
      for round in 1 2; do
        wall fwd-$round mpi_run -np 1 "$build/app/seis-wave" "${big[@]}" --benchmark --source 5120,5120,$top \
          --receivers "$receivers" --output "$OUT/fwd-$round"
        echo "  forward: $(json "$OUT/fwd-$round/run.json" "{k: m['performance'][k] for k in ('steps_timed', 'seconds_per_step', 'gpts_per_s', 'compulsory_bytes_per_point', 'step_gb_per_s', 'copy_gb_per_s', 'percent_of_copy')}")"
        wall rtm-$round mpi_run -np 1 "$build/app/seis-wave" "${big[@]}" --migrate "$OUT/fwd-$round/seismogram.sgy" \
          --source 5120,5120,$top --receivers "$receivers" --output "$OUT/rtm-$round"
        echo "  migration: $(json "$OUT/rtm-$round/migration.json" "[(s['forward_seconds'], s['backward_seconds'], s['gb_per_s'], s['steps']) for s in m['shot']], m['migration']")"
        grep -E '^seis-wave migration' "$OUT/rtm-$round.log"
      done ;;
    born)
      builds=this; [ ! -x .device-carry/base/seis-wave-serial ] || builds="base this"
      for round in 1 2; do
        for b in $builds; do
          wave=$build/app/seis-wave-serial; [ $b = this ] || wave=.device-carry/base/seis-wave-serial
          r=$b-$round
          wall fwd-$r "$wave" "${big[@]}" --benchmark --source 5120,5120,$top --receivers "$receivers" --output "$OUT/fwd-$r"
          echo "  $b forward: $(json "$OUT/fwd-$r/run.json" "{k: m['performance'][k] for k in ('seconds_per_step', 'gpts_per_s', 'compulsory_bytes_per_point', 'step_gb_per_s', 'copy_gb_per_s', 'percent_of_copy')}")"
          wall born-$r "$wave" "${big[@]}" --born homogeneous:20 --source 5120,5120,$top --receivers "$receivers" --output "$OUT/born-$r"
          echo "  $b born: $(json "$OUT/born-$r/run.json" "{k: m['performance'][k] for k in ('seconds_per_step', 'gpts_per_s', 'compulsory_bytes_per_point', 'step_gb_per_s', 'copy_gb_per_s', 'percent_of_copy')}")"
          for condition in correlation adjoint; do
            wall rtm-$condition-$r "$wave" "${big[@]}" --migrate "$OUT/fwd-$r/seismogram.sgy" --imaging-condition $condition \
              --source 5120,5120,$top --receivers "$receivers" --output "$OUT/rtm-$condition-$r"
            echo "  $b $condition: $(json "$OUT/rtm-$condition-$r/migration.json" "[(s['forward_seconds'], s['backward_seconds'], s['gb_per_s'], s['percent_of_copy'], s['steps']) for s in m['shot']], m['migration']['imaging_interval'], m['migration']['device_bytes']")"
            find "$OUT/rtm-$condition-$r" \( -name '*.sgy' -o -name 'stack-*.bin' \) -delete
          done
          rm -f "$OUT/born-$r/seismogram.sgy"
        done
      done ;;
    survey)
      # Four shots per GPU on 1, 2 and 4 GPUs: each forward survey writes the gathers its migration survey reads.
      for n in 1 2 4 1; do
        [ "$n" -le "$gpus" ] || continue
        shots "$OUT/shots-$n.toml" $((4 * n))
        [ -d "$OUT/fwd-$n" ] || wall fwd-$n mpi_run -np $n "$build/app/seis-wave" "${big[@]}" --survey "$OUT/shots-$n.toml" --output "$OUT/fwd-$n"
        name=rtm-$n; [ ! -d "$OUT/$name" ] || name=rtm-$n-again
        wall $name mpi_run -np $n "$build/app/seis-wave" "${big[@]}" --survey "$OUT/shots-$n.toml" --migrate "$OUT/fwd-$n" --output "$OUT/$name"
      done
      for d in "$OUT"/fwd-*/; do echo "$(basename "$d"): $(json "$d/survey.json" "m['shots'], round(m['wall_seconds'], 3), round(m['shots'] / m['wall_seconds'], 4)") (shots, wall s, shots/s)"; done
      for d in "$OUT"/rtm-*/; do echo "$(basename "$d"): $(json "$d/migration.json" "m['shots'], round(m['wall_seconds'], 3), round(m['shots'] / m['wall_seconds'], 4), round(m['migration']['shots_seconds'], 3), round(m['shots'] / m['migration']['shots_seconds'], 4), round(m['migration']['finish_seconds'], 2), [round(s['seconds'], 2) for s in m['shot']]") (shots, wall s, shots/s; the shots' phase s, shots/s; finishing s; per shot)"; grep -h '^finishing' "$OUT/$(basename "$d").log"; done ;;
    finish)
      shots "$OUT/shots-$gpus.toml" $((4 * gpus))
      [ -d "$OUT/fwd-$gpus" ] || wall fwd-$gpus mpi_run -np $gpus "$build/app/seis-wave" "${big[@]}" --survey "$OUT/shots-$gpus.toml" --output "$OUT/fwd-$gpus"
      for r in $(seq "${ROUNDS:-2}"); do
        for b in base this; do
          binary=$build/app/seis-wave
          [ $b = this ] || binary=.device-carry/base/seis-wave
          wall finish-$b-r$r mpi_run -np $gpus "$binary" "${big[@]}" --survey "$OUT/shots-$gpus.toml" --migrate "$OUT/fwd-$gpus" --output "$OUT/finish-$b-r$r"
          echo "finish-$b-r$r: $(json "$OUT/finish-$b-r$r/migration.json" "round(m['wall_seconds'], 2), round(m['migration']['shots_seconds'], 2), round(m['migration']['finish_seconds'], 2)") (wall, shots' phase, finishing s); $(grep -h '^finishing' "$OUT/finish-$b-r$r.log" | tr '\n' ' ')"
          find "$OUT/finish-$b-r$r" \( -name '*.sgy' -o -name 'stack-*.bin' -o -name '*.png' \) -delete
        done
      done ;;
  esac
done
# The device tool brings back few and small files: the logs and manifests, not the volumes.
find "$OUT" \( -name '*.sgy' -o -name 'stack-*.bin' -o -name '*.png' \) -delete
tar -C "$OUT" -czf /tmp/rtm.tar.gz . && find "$OUT" -mindepth 1 -delete && mv /tmp/rtm.tar.gz "$OUT/"

#!/usr/bin/env bash
# Runs on nvidia-h100-x4 / nvidia-h200-x4 (or -x2: the 4-GPU survey is then skipped): issue 36's measurements in one
# lease, over the binaries of perf/device/carry-build.sh and the Open MPI bundle of perf/device/mpi-bundle.sh (both
# in .device-pack/carry.tar.xz, as for scale-out.sh).
#   same   a small 8-shot survey on 1 GPU, on 2 GPUs (one per shot) and on 2 GPUs together (--ranks-per-shot 2,
#          CUDA IPC halos): every gather's md5 beside the single run of shot 3
#   tests     seis_tests_Cuda's new-shot, restart and decomposition tests (one GPU)
#   sanitize  compute-sanitizer memcheck and racecheck over a 3-shot survey, one GPU per shot and both GPUs per shot
#             (CUDA IPC halos kept from shot to shot)
#   rate   surveys of 4 shots per GPU of 512^3 (R = 4, unified) on 1, 2 and 4 GPUs: each survey's wall time; equal
#          work per GPU, so the efficiency against 1 GPU is its wall time over theirs
#   ab     rate's surveys, ROUNDS (default 4) rounds alternating the commit before and this build
# usage: perf/device/survey.sh STAGE...   (results in $OUT/survey.tar.gz, summaries on stdout; SEIS_WAVE=BINARY runs
#        another seis-wave, e.g. .device-carry/base/seis-wave-COMMIT for the commit before, and PREFIX names its runs)
set -uo pipefail
mkdir -p .device-carry && tar -xJf .device-pack/carry.tar.xz -C .device-carry
. perf/device/mpi-env.sh
gpus=$(nvidia-smi -L | wc -l)
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
line() {  # line FILE N NX NY: a survey file of N shots along x at mid y, near the top, one receiver spread for all
  local file=$1 n=$2 nx=$3 ny=$4
  local h=20 top=$((30 * 20))
  printf 'receivers = "%d,%d,%d:%d,%d,%d:256"\n' $((30 * h)) $((ny * h / 2)) $top $(((nx - 31) * h)) $((ny * h / 2)) $top > "$file"
  for s in $(seq "$n"); do
    printf '[[shot]]\nsource = "%d,%d,%d"\n' $(((30 + (nx - 61) * s / (n + 1)) * h)) $((ny * h / 2)) $top >> "$file"
  done
}
survey() {  # survey NAME RANKS SHOTS GRID-SIZE ARGS...: one survey, its wall time and manifest
  local name=${PREFIX:-}$1 ranks=$2 shots=$3 n=$4; shift 4
  mkdir -p "$OUT/$name"
  line "$OUT/$name/survey.toml" "$shots" "$n" "$n"
  local start=$(date +%s.%N)
  mpi_run -np "$ranks" "${SEIS_WAVE:-$build/app/seis-wave}" --grid "$n" --survey "$OUT/$name/survey.toml" --output "$OUT/$name/out" \
    "$@" > "$OUT/$name/log.txt" 2>&1
  local rc=$? end=$(date +%s.%N)
  echo "$name: $ranks ranks, $shots shots of $n^3: exit $rc, mpirun $(awk "BEGIN{printf \"%.2f\", $end - $start}") s; $(grep -E '^survey done|seis-wave: ' "$OUT/$name/log.txt" | tail -1)"
}
for stage in "$@"; do
  echo "=== $stage ($(date -u +%H:%M:%S), $gpus GPUs)"
  case $stage in
    same)
      small=(--model layered --spacing 20 --ndamp 10 --duration 0.5 --quiet)
      survey same-1 1 8 96 "${small[@]}"
      survey same-2 2 8 96 "${small[@]}"
      survey same-2g 2 8 96 "${small[@]}" --ranks-per-shot 2 --decomposition 2x1x1
      mpi_run -np 1 "$build/app/seis-wave" --grid 96 "${small[@]}" --benchmark --shot 3 --output "$OUT/same-single" \
        --receivers "$(sed -n 's/receivers = "\(.*\)"/\1/p' "$OUT/${PREFIX:-}same-1/survey.toml")" \
        --source "$(sed -n '7s/source = "\(.*\)"/\1/p' "$OUT/${PREFIX:-}same-1/survey.toml")" > "$OUT/same-single.log" 2>&1
      echo "single run of shot 3: $(md5sum < "$OUT/same-single/seismogram.sgy" | cut -c1-12)"
      for c in same-1 same-2 same-2g; do
        echo "$c: $(cd "$OUT/${PREFIX:-}$c/out" && md5sum shot-*.sgy | cut -c1-12 | tr '\n' ' ')"
      done ;;
    tests)
      LD_LIBRARY_PATH=$build/lib "$build/tests/seis_tests_Cuda" \
        --gtest_filter='*WaveNewShot*:*WaveRestart*:*WavePartsMatchWhole*' 2>&1 | tail -6 ;;
    sanitize)
      for check in memcheck:1 memcheck:2 racecheck:1 racecheck:2; do
        tool=${check%:*} per=${check#*:}
        mkdir -p "$OUT/$tool-$per"
        line "$OUT/$tool-$per/survey.toml" 3 96 72
        mpi_run -np 2 compute-sanitizer --tool "$tool" --error-exitcode 9 "$build/app/seis-wave" --grid 96x72x64 \
          --model layered --ndamp 10 --duration 0.05 --quiet --survey "$OUT/$tool-$per/survey.toml" \
          --ranks-per-shot "$per" --output "$OUT/$tool-$per/out" > "$OUT/$tool-$per/log.txt" 2>&1
        echo "$tool, $per GPU(s) per shot: exit $?: $(grep -cE 'ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards' "$OUT/$tool-$per/log.txt") of 2 ranks clean; $(grep -E '^survey done' "$OUT/$tool-$per/log.txt")"
      done ;;
    rate)
      big=(--model layered --spacing 20 --ndamp 27 --radius 4 --duration 2 --strategy unified --quiet)
      survey rate-1 1 4 512 "${big[@]}"
      survey rate-2 2 8 512 "${big[@]}"
      [ "$gpus" -lt 4 ] || survey rate-4 4 16 512 "${big[@]}"
      survey rate-1-again 1 4 512 "${big[@]}" ;;
    ab)  # ROUNDS rounds of rate's surveys, the commit before (.device-carry/base/seis-wave) and this
         # build alternating in each round
      big=(--model layered --spacing 20 --ndamp 27 --radius 4 --duration 2 --strategy unified --quiet)
      for r in $(seq "${ROUNDS:-4}"); do
        for b in base this; do
          binary=$build/app/seis-wave
          [ $b = this ] || binary=.device-carry/base/seis-wave
          SEIS_WAVE=$binary PREFIX=$b-r$r- survey rate-1 1 4 512 "${big[@]}"
          SEIS_WAVE=$binary PREFIX=$b-r$r- survey rate-2 2 8 512 "${big[@]}"
          [ "$gpus" -lt 4 ] || SEIS_WAVE=$binary PREFIX=$b-r$r- survey rate-4 4 16 512 "${big[@]}"
        done
      done
      for f in "$OUT"/*/log.txt; do
        echo "$(basename "$(dirname "$f")"): $(grep -oE 'the model and checks [0-9.]+ s' "$f"); $(grep -oE '[0-9.]+ shots/s' "$f")"
      done ;;
  esac
done
# The device tool brings back few and small files: the logs and manifests, not the gathers.
find "$OUT" -name 'shot-*.sgy' -delete -o -name 'shot-*.png' -delete
tar -C "$OUT" -czf /tmp/survey.tar.gz . && find "$OUT" -mindepth 1 -delete && mv /tmp/survey.tar.gz "$OUT/"

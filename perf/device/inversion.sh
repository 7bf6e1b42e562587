#!/usr/bin/env bash
# Runs on the 2-GPU machine: the inversion's checks and its spread over GPUs, over the binaries of
# perf/device/carry-build.sh and the Open MPI bundle of perf/device/mpi-bundle.sh.
#   tests   seis_tests_Cuda whole, then compute-sanitizer memcheck over the inversion's and the operators' tests
#   ranks   a GRID^3 survey (default 256) of 4 shots (the layered model, 10 m, R = 4, DURATION s at 1 ms, default
#           0.8) inverted from 2000 m/s, ITERATIONS iterates (default 2), by the runs RUNS (default "one two
#           one-again"): one on one GPU (seis-wave-serial), two on two (two ranks): the last iterate's model and
#           gradient (and density's) compared byte for byte, each run's iterate times and phases from inversion.json;
#           FLAGS: more of the inversion's flags (e.g. the density inverted too); each run's last outputs' md5 sums
#   profile the ranks stage's survey at GRID^3 inverted on one GPU (ITERATIONS iterates) under nsys (its CUDA API and
#           kernel summaries: where an evaluation's time goes beside its kernels); FLAGS as there
#   shot    where one shot's gradient goes at GRID^3 (DURATION s): the survey's first shot modelled (--benchmark)
#           and migrated with the adjoint imaging condition (--migrate, migration.json's forward and backward
#           passes beside the whole run's), under nsys where the machine has it
# usage: perf/device/inversion.sh STAGE...   (BUILD as mpi-env.sh; logs in $OUT)
set -uo pipefail
. perf/device/mpi-env.sh
json() { /usr/bin/python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
for stage in "$@"; do
  echo "=== $stage ($(date -u +%H:%M:%S))"
  case $stage in
    tests)
      "$build/tests/seis_tests_Cuda" > "$OUT/tests.log" 2>&1
      echo "seis_tests_Cuda: exit $?, $(grep -E '^\[  (PASSED|FAILED) ' "$OUT/tests.log" | tr '\n' ' ')"
      compute-sanitizer --tool memcheck --error-exitcode 9 "$build/tests/seis_tests_Cuda" \
        --gtest_filter='*Inversion*:*Operator*' > "$OUT/memcheck.log" 2>&1
      echo "memcheck (inversion, operators): exit $?, $(grep -E 'ERROR SUMMARY|PASSED|FAILED' "$OUT/memcheck.log" | tr '\n' ' ')" ;;
    ranks|profile)
      n=${GRID:-256} iterations=${ITERATIONS:-2} runs=${RUNS:-one two one-again}
      size=$((10 * (n - 1))) last=$(printf %04d "$iterations")
      printf 'receivers = "200,%d,200:%d,%d,200:%d"\n' $((size / 2)) $((size - 200)) $((size / 2)) $(((size - 400) / 20 + 1)) \
        > "$OUT/survey.toml"
      for s in 1 2 3 4; do printf '[[shot]]\nsource = "%d,%d,100"\n' $((200 + (size - 400) * (2 * s - 1) / 8)) $((size / 2)) \
        >> "$OUT/survey.toml"; done
      # One dt for the data and the inversion, stable for the upper bound.
      common=(--grid "$n" --spacing 10 --ndamp 16 --radius 4 --duration "${DURATION:-0.8}" --dt 0.001 --trace-dt 0.001
              --quiet --survey "$OUT/survey.toml")
      "$build/app/seis-wave-serial" "${common[@]}" --model layered --output "$OUT/data" > "$OUT/data.log" 2>&1
      echo "data: exit $?, $(grep -E 'survey done' "$OUT/data.log")"
      # shellcheck disable=SC2206  # FLAGS is a list of words
      invert=("${common[@]}" --model homogeneous:2000 --invert "$OUT/data" --vmin 1400 --vmax 3400 --iterations "$iterations"
              ${FLAGS:-})
      if [ "$stage" = profile ]; then
        if command -v nsys > /dev/null; then
          nsys profile -o "$OUT/inversion" --stats=true "$build/app/seis-wave-serial" "${invert[@]}" \
            --output "$OUT/profiled" > "$OUT/profile.log" 2>&1
          echo "profile: exit $?"
          grep -E -A22 'cuda_api_sum|cuda_gpu_kern_sum|cuda_gpu_mem_time_sum|osrt_sum' "$OUT/profile.log" | cut -c1-200 | head -110
          json "$OUT/profiled/inversion.json" "[(i['evaluations'], round(i['seconds'], 2), i['phase_seconds']) for i in m['iterations']]"
        else
          echo "no nsys here"
        fi
        find "$OUT" -name '*.sgy' -delete
        continue
      fi
      for run in $runs; do
        start=$(date +%s.%N)
        if [ $run = two ]; then
          mpi_run -np 2 "$build/app/seis-wave" "${invert[@]}" --output "$OUT/$run" > "$OUT/$run.log" 2>&1
        else
          "$build/app/seis-wave-serial" "${invert[@]}" --output "$OUT/$run" > "$OUT/$run.log" 2>&1
        fi
        code=$? end=$(date +%s.%N)
        echo "$run: exit $code, $(awk "BEGIN{printf \"%.1f\", $end - $start}") s: $(grep -E '^done' "$OUT/$run.log")"
        json "$OUT/$run/inversion.json" "[(i['iteration'], i['evaluations'], round(i['seconds'], 2), {k: round(v, 2) for k, v in i['phase_seconds'].items()}, round(i['outputs_seconds'], 2)) for i in m['iterations']]"
        # Checksums, to compare runs of other binaries (another commit's) beside this one's.
        (cd "$OUT/$run/iteration-$last" && md5sum ./*.sgy)
      done
      for f in model.sgy gradient.sgy density.sgy density-gradient.sgy; do
        for run in two one-again; do
          [ ! -f "$OUT/$run/iteration-$last/$f" ] ||
            { cmp "$OUT/one/iteration-$last/$f" "$OUT/$run/iteration-$last/$f" && echo "$run: $f bitwise one GPU's"; }
        done
      done
      find "$OUT" -name '*.sgy' -delete ;;
    shot)
      n=${GRID:-256} size=$((10 * (${GRID:-256} - 1)))
      one=(--grid "$n" --spacing 10 --ndamp 16 --radius 4 --duration "${DURATION:-0.8}" --dt 0.001 --trace-dt 0.001
           --quiet --model layered --source "$((200 + (size - 400) / 8)),$((size / 2)),100"
           --receivers "200,$((size / 2)),200:$((size - 200)),$((size / 2)),200:$(((size - 400) / 20 + 1))")
      for run in 1 2; do
        start=$(date +%s.%N)
        "$build/app/seis-wave-serial" "${one[@]}" --benchmark --output "$OUT/fwd" > "$OUT/fwd.log" 2>&1
        mid=$(date +%s.%N)
        "$build/app/seis-wave-serial" "${one[@]}" --migrate "$OUT/fwd/seismogram.sgy" --imaging-condition adjoint \
          --output "$OUT/adj" > "$OUT/adj.log" 2>&1
        end=$(date +%s.%N)
        echo "round $run: forward run $(awk "BEGIN{printf \"%.2f\", $mid - $start}") s ($(json "$OUT/fwd/run.json" "round(m['performance']['seconds_per_step'] * 1e3, 3)") ms a step), adjoint migration run $(awk "BEGIN{printf \"%.2f\", $end - $mid}") s: $(json "$OUT/adj/migration.json" "[(round(s['forward_seconds'], 2), round(s['backward_seconds'], 2), round(s['setup_seconds'], 2), round(s['seconds'], 2)) for s in m['shot']]")"
      done
      if command -v nsys > /dev/null; then
        nsys profile -o "$OUT/adjoint" --stats=true "$build/app/seis-wave-serial" "${one[@]}" --migrate \
          "$OUT/fwd/seismogram.sgy" --imaging-condition adjoint --output "$OUT/adj-nsys" > "$OUT/nsys.log" 2>&1
        grep -A25 'cuda_api_sum\|CUDA API Statistics' "$OUT/nsys.log" | head -40
      else
        echo "no nsys here"
      fi
      find "$OUT" -name '*.sgy' -delete ;;
  esac
done

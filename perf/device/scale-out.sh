#!/usr/bin/env bash
# Runs on nvidia-h100-x4 / nvidia-h200-x4 (or -x2: the 4-GPU cases are then skipped): issue 35's checks and
# measurements in one lease, over the binaries of perf/device/carry-build.sh and the Open MPI bundle of
# perf/device/mpi-bundle.sh, both packed in .device-pack/carry.tar.xz (cuda-mpi/ and mpi/).
#   tests     seis_tests_Cuda's decomposition and strategy tests (one GPU, halos handed over in memory)
#   same      a small grid on 1, 2 and 4 GPUs, direct (CUDA IPC) and staged: every seismogram's md5
#   scale     weak (512^3 and 768^3 per GPU) and strong (1024^3) scaling, each beside its one-GPU run
#   rescale   the weak 512^3 and x-split cases again, beside their one-GPU runs
#   defaults  the weak and strong cases with seis-wave's default decomposition, beside the previous default (1x1x2)
#   sanitize  compute-sanitizer memcheck (direct and staged) and racecheck (direct) on both ranks of a small x split
# usage: perf/device/scale-out.sh STAGE...   (results in $OUT/scale-out.tar.gz, summaries on stdout)
set -uo pipefail
root=$(pwd)
mkdir -p .device-carry && tar -xJf .device-pack/carry.tar.xz -C .device-carry
export PATH=/usr/local/cuda/bin:$PATH
gpus=$(nvidia-smi -L | wc -l)
common=(--model layered --spacing 20 --ndamp 27 --radius 4 --duration 0.161 --strategy unified)
run() { OUT=$OUT/$1 perf/device/multi-gpu.sh "${@:2}"; }
for stage in "$@"; do
  echo "=== $stage ($(date -u +%H:%M:%S), $gpus GPUs)"
  case $stage in
    tests)
      LD_LIBRARY_PATH=.device-carry/cuda-mpi/lib .device-carry/cuda-mpi/tests/seis_tests_Cuda \
        --gtest_filter='*WaveParts*:*WaveStrategiesMatch*:*WaveRestart*' 2>&1 | tail -8 ;;
    same)
      small=(--model layered --spacing 20 --ndamp 10 --duration 0.5 --source 900,700,400
             --receivers 100,640,300:1800,700,500:64)
      cases=(one:1:1x1x1:96x72x64 y2:2:1x2x1:96x72x64 y2s:2:1x2x1:96x72x64:--halo-transport@staged
             x2:2:2x1x1:96x72x64 x2s:2:2x1x1:96x72x64:--halo-transport@staged)
      [ "$gpus" -lt 4 ] || cases+=(xyz4:4:2x2x1:96x72x64 yz4:4:1x2x2:96x72x64 yz4s:4:1x2x2:96x72x64:--halo-transport@staged
                                   r8x4:4:2x1x2:96x72x64:--radius@8 r8one:1:1x1x1:96x72x64:--radius@8)
      run same "${cases[@]//@/ }" -- "${small[@]}" ;;
    scale)
      cases=(b512:1:1x1x1:512 w512-2:2:1x2x1:512x1024x512 w512-2s:2:1x2x1:512x1024x512:--halo-transport@staged
             b768:1:1x1x1:768 w768-2:2:1x2x1:768x1536x768 b1024:1:1x1x1:1024 s1024-2:2:1x2x1:1024
             s1024-2s:2:1x2x1:1024:--halo-transport@staged)
      [ "$gpus" -lt 4 ] || cases+=(w512-4:4:1x2x2:512x1024x1024 w512-4x:4:2x2x1:1024x1024x512
                                   w768-4:4:1x2x2:768x1536x1536 s1024-4:4:1x2x2:1024 s1024-4x:4:2x2x1:1024
                                   s1024-4s:4:1x2x2:1024:--halo-transport@staged)
      run scale "${cases[@]//@/ }" -- "${common[@]}" ;;
    rescale)  # the cases the face-layer tiles change, beside their one-GPU runs
      cases=(b512:1:1x1x1:512 w512-2:2:1x2x1:512x1024x512 b768:1:1x1x1:768 w768-2:2:1x2x1:768x1536x768
             b1024:1:1x1x1:1024 s1024-2:2:1x2x1:1024)
      [ "$gpus" -lt 4 ] || cases+=(w512-4:4:1x2x2:512x1024x1024 w512-4x:4:2x2x1:1024x1024x512 s1024-4x:4:2x2x1:1024
                                   s1024-4:4:1x2x2:1024 w768-4:4:1x2x2:768x1536x1536
                                   w512-2s:2:1x2x1:512x1024x512:--halo-transport@staged)
      run rescale "${cases[@]//@/ }" -- "${common[@]}" ;;
    defaults)  # the tables' cases with the default decomposition (the least halo surface), beside the old default
      cases=(b512:1:1x1x1:512 w512-2:2:default:512x1024x512 w512-2z:2:1x1x2:512x1024x512 b1024:1:1x1x1:1024
             s1024-2:2:default:1024 s1024-2y:2:1x2x1:1024)
      [ "$gpus" -lt 4 ] || cases+=(w512-4:4:default:512x1024x1024 b768:1:1x1x1:768 w768-4:4:default:768x1536x1536
                                   s1024-4:4:default:1024)
      run defaults "${cases[@]}" -- "${common[@]}" ;;
    sanitize)  # memcheck and racecheck on both ranks of a small direct (CUDA IPC) run split over x
      . perf/device/mpi-env.sh
      for check in memcheck:direct memcheck:staged racecheck:direct; do
        tool=${check%:*} transport=${check#*:}
        mpi_run -np 2 compute-sanitizer --tool "$tool" --error-exitcode 9 "$build/app/seis-wave" --grid 96x72x64 \
          --model layered --ndamp 10 --duration 0.05 --benchmark --quiet --decomposition 2x1x1 \
          --halo-transport "$transport" --output "/tmp/$tool-$transport" > "$OUT/$tool-$transport.txt" 2>&1
        echo "$check exit $?: $(grep -cE 'ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards' "$OUT/$tool-$transport.txt") of 2 ranks clean"
      done ;;
  esac
done
mkdir -p /tmp/pack && mv "$OUT"/* /tmp/pack/ 2>/dev/null; tar -C /tmp/pack -czf "$OUT/scale-out.tar.gz" .

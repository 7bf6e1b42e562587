#!/usr/bin/env bash
# Configures seistencil as a new user would type it (configure only; run after the cuda and hip presets, whose
# bootstrapped Kokkos these configures reuse): -DKokkos_ENABLE_HIP=ON and -DKokkos_ENABLE_CUDA=ON with an arch select
# that backend, a plain configure is Release, and contradictory or incomplete flags are refused before any
# bootstrap with a message saying what to do.
# usage: cmake_user_flags.sh SOURCE_DIR WORKDIR   (nvcc and hipcc on PATH)
set -euo pipefail
source=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
n=0
configure() {  # configure NAME ARGS...: the configure's output in WORKDIR/NAME.log, its status in $status
  local name=$1; shift
  set +e
  cmake -S "$source" -B "$work/$name" -DSEIS_ENABLE_TESTS=OFF -DSEIS_ENABLE_BENCHMARKS=OFF "$@" > "$work/$name.log" 2>&1
  status=$?
  set -e
  n=$((n + 1))
}
expect() {  # expect NAME PATTERN: the log has it (CMake wraps its messages: lines joined first)
  tr -s ' \n' '  ' < "$work/$1.log" | grep -qE "$2" || { echo "FAIL: $1: no /$2/ in:" >&2; tail -15 "$work/$1.log" >&2; exit 1; }
}
refused() {  # refused NAME PATTERN ARGS...
  local name=$1 pattern=$2; shift 2
  configure "$name" "$@"
  [ $status -ne 0 ] || { echo "FAIL: $name configured" >&2; exit 1; }
  expect "$name" "$pattern"
}

configure plain
[ $status -eq 0 ] && grep -q "^CMAKE_BUILD_TYPE:STRING=Release" "$work/plain/CMakeCache.txt" || { echo "FAIL: plain" >&2; exit 1; }
expect plain "Enabled Kokkos devices: OPENMP"
# A user's configure: no -march=native (a package must run on other CPUs), no -Werror; a summary of the choices.
grep -q "^SEIS_HOST_ARCH:STRING=$" "$work/plain/CMakeCache.txt" &&
  grep -q "^SEIS_WARNINGS_AS_ERRORS:BOOL=OFF" "$work/plain/CMakeCache.txt" || { echo "FAIL: plain's flags" >&2; exit 1; }
expect plain "seistencil [0-9.]+ configured: backend OPENMP"
expect plain "Kokkos +3\.4[.0-9]*, bootstrapped into"
configure hip -DKokkos_ENABLE_HIP=ON
[ $status -eq 0 ] || { echo "FAIL: hip: $(tail -5 "$work/hip.log")" >&2; exit 1; }
expect hip "Enabled Kokkos devices: SERIAL;HIP"
# Without the Python module, as the cuda preset: its Kokkos is this one's (the module's would be built position-
# independent, a second CUDA Kokkos: two minutes of CI's two cores).
configure cuda -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON -DSEIS_PYTHON=OFF
[ $status -eq 0 ] || { echo "FAIL: cuda: $(tail -5 "$work/cuda.log")" >&2; exit 1; }
expect cuda "Enabled Kokkos devices: CUDA"
refused both "both ON: a build has one device backend" -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_HIP=ON
refused cuda-no-arch "add -DKokkos_ARCH_HOPPER90=ON" -DKokkos_ENABLE_CUDA=ON
refused openmp-and-hip "Kokkos_ENABLE_HIP=ON, but SEIS_BACKEND is OPENMP" -DSEIS_BACKEND=OPENMP -DKokkos_ENABLE_HIP=ON
refused hip-gcc "SEIS_BACKEND=HIP compiles with hipcc, not" -DSEIS_BACKEND=HIP -DCMAKE_CXX_COMPILER=g++
refused two-arches "several GPU architectures" -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON -DKokkos_ARCH_AMPERE80=ON
echo "cmake user flags: $n configures as expected (Release by default, HIP and CUDA selected by Kokkos_ENABLE_*, 5 refusals)"

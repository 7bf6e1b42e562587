#!/usr/bin/env bash
# Runs here: copies a CUDA build's executables (seis-wave, seis-wave-serial, seis-bench, the test binaries and the
# C++ examples, where built) into DIR/app, DIR/perf, DIR/tests and DIR/examples/cpp, its Python package (where
# built) into DIR/python, and the shared libraries they need that a bare CUDA image lacks (segyio, toml++, OpenMP,
# MPI's C library, ...) into DIR/lib, for the device tool's `carry`.
# usage: perf/device/carry-build.sh BUILD DIR
set -euo pipefail
build=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir/app" "$dir/perf" "$dir/tests" "$dir/examples/cpp" "$dir/lib"
for f in app/seis-wave app/seis-wave-serial perf/seis-bench tests/seis_tests_Cuda tests/seis_core_tests \
         tests/seis_io_tests tests/seis_app_tests examples/cpp/example_laplacian examples/cpp/example_forward_shot \
         examples/cpp/example_born_dot_test; do
  [ ! -x "$build/$f" ] || cp "$build/$f" "$dir/$f"
done
[ ! -d "$build/python/seistencil" ] || { mkdir -p "$dir/python" && cp -r "$build/python/seistencil" "$dir/python/"; }
. "$(dirname "$0")/libraries.sh"
copy_libraries "$dir" "$dir/lib" '/libcuda\.so|/usr/local/cuda'
du -sh "$dir"

#!/usr/bin/env bash
# Installs a build (cmake --install) into a scratch prefix and builds tests/consumer against it with
# find_package(seistencil): the package, its exported targets, its headers (those of exported libraries only, each
# compiling alone) and its Kokkos are found, the C++ examples build and run, and the installed executables answer
# --version.
# usage: install_consumer.sh BUILD_DIR WORKDIR
set -euo pipefail
build=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
for exe in seis-wave seis-bench; do
  [ -x "$work/prefix/bin/$exe" ] || { echo "FAIL: $exe not installed" >&2; exit 1; }
  "$work/prefix/bin/$exe" --version | grep -q "^$exe [0-9]" || { echo "FAIL: $exe --version" >&2; exit 1; }
done
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
cmake -S "$here/consumer" -B "$work/build" "${generator[@]}" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DSEIS_EXAMPLES_DIR="$here/../examples/cpp" \
  -DCMAKE_BUILD_TYPE=Release > "$work/configure.log" 2>&1 || { cat "$work/configure.log" >&2; exit 1; }
cmake --build "$work/build" > "$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; exit 1; }
# The package finds its Kokkos by itself: where this build bootstrapped one, the copy installed beside it, so that
# clearing the bootstrap cache breaks nothing; the installed config names no directory of the build machine's cache.
built_with=$(grep '^Kokkos_DIR:' "$build/CMakeCache.txt" | cut -d= -f2)
found=$(grep '^Kokkos_DIR:' "$work/build/CMakeCache.txt" | cut -d= -f2)
case $built_with in
  */kokkos-3.4.01-*)  # bootstrapped
    case $found in
      "$work/prefix"/*) ;;
      *) echo "FAIL: the consumer found Kokkos at $found, not beside the installed package" >&2; exit 1 ;;
    esac ;;
esac
! grep -rq "/.cache/seistencil" "$work/prefix/lib/cmake/seistencil" ||
  { echo "FAIL: the installed package names the build's Kokkos cache" >&2; exit 1; }
for folder in io mpi; do
  [ ! -e "$work/prefix/include/seis/$folder" ] ||
    { echo "FAIL: the headers of seis/$folder, a library the package does not export, were installed" >&2; exit 1; }
done
headers=$(find "$work/prefix/include/seis" -name '*.hpp' | wc -l)
[ "$headers" -gt 50 ] || { echo "FAIL: only $headers headers installed" >&2; exit 1; }
for example in laplacian forward_shot born_dot_test invert_ball; do
  OMP_NUM_THREADS=2 "$work/build/examples/example_$example"
done
echo "installed: $(cd "$work/prefix" && find . -type f | wc -l) files; the examples built against them and ran;" \
  "each of the $headers headers compiled alone"

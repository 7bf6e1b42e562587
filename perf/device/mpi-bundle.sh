#!/usr/bin/env bash
# Runs here (Debian 12 with scripts/install-deps.sh mpi): copies Debian's Open MPI runtime (mpirun, its MCA and
# PMIx components, help files and every shared library they need that a bare CUDA image may lack) into DIR, laid
# out as under / so that OPAL_PREFIX=DIR/usr relocates it. perf/device/h200-mpi.sh uses it on the multi-GPU
# machines, which have no package registry.
# usage: perf/device/mpi-bundle.sh DIR
set -euo pipefail
dir=$1
rm -rf "$dir" && mkdir -p "$dir"
lib=/usr/lib/x86_64-linux-gnu
copy() { local f; for f in "$@"; do mkdir -p "$dir$(dirname "$f")"; cp -a "$f" "$dir$f"; done; }
copy $lib/openmpi $lib/pmix2 /usr/share/openmpi /etc/openmpi
copy "$(readlink -f /usr/bin/orterun)" "$(readlink -f /usr/bin/orted)"
ln -sf "$(basename "$(readlink -f /usr/bin/orterun)")" "$dir/usr/bin/mpirun"
# A runtime: no headers or static archives (they only swell the device tool's carry).
find "$dir" -depth \( -type d -name include -o -type f -name '*.a' \) -exec rm -rf {} +
# Shared libraries of everything copied, except the C and C++ runtimes every image has.
mkdir -p "$dir/deps"
. "$(dirname "$0")/libraries.sh"
copy_libraries "$dir" "$dir/deps"
du -sh "$dir"

#!/usr/bin/env bash
# Builds and installs Kokkos 3.4.01 + Kokkos Kernels 3.4.01 (header-only, ETI off) from Debian bookworm's
# trilinos source package, with the project's patches, into PREFIX. Called by cmake/SeisKokkos.cmake at
# configure time when no suitable Kokkos is installed; PREFIX is a cache directory keyed by version, backend,
# architecture, options, patch hash and compiler, so this runs once per key.
#
# usage: bootstrap-kokkos.sh PREFIX BACKEND ARCH CXX_COMPILER BUILD_TYPE EXTRA_KOKKOS_OPTIONS
#   BACKEND: OPENMP | CUDA | HIP     ARCH: Kokkos arch name (HOPPER90, AMPERE80, VEGA908, ...) or "none"
set -euo pipefail

prefix=$1 backend=$2 arch=$3 cxx=$4 build_type=$5 extra_options=${6:-}
here=$(cd "$(dirname "$0")" && pwd)
cache_root=$(dirname "$prefix")
src_root="$cache_root/src"
kokkos_src="$src_root/kokkos-3.4.01"
kernels_src="$src_root/kokkos-kernels-3.4.01"
trilinos_version=13.2.0
jobs=$(nproc)

log() { printf '[seistencil bootstrap] %s\n' "$*" >&2; }

# build WHAT LOG ARGS...: cmake --build ARGS into LOG, a progress line (ninja's [done/total]) every 30 s, the log's
# tail on failure.
build() {
  local what=$1 output=$2; shift 2
  cmake --build "$@" > "$output" 2>&1 &
  local pid=$! started=$SECONDS
  while kill -0 "$pid" 2> /dev/null; do
    sleep 5
    if [ $(((SECONDS - started) % 30)) -lt 5 ]; then
      log "building $what: $(grep -o '^\[[0-9]*/[0-9]*\]' "$output" | tail -1) after $((SECONDS - started)) s"
    fi
  done
  wait "$pid" || { tail -n 60 "$output" >&2; exit 1; }
  log "built $what in $((SECONDS - started)) s"
}

# deb-src entries are derived from the machine's own Debian sources (same URIs and suites), so no host name is
# ever written here.
ensure_deb_src() {
  if apt-cache showsrc trilinos 2>/dev/null | grep -q "^Version: ${trilinos_version}"; then return; fi
  if [ "$(id -u)" -ne 0 ]; then
    log "Kokkos's source comes from Debian's trilinos source package, whose deb-src entries this machine lacks;"
    log "adding them (/etc/apt/sources.list.d/seistencil-deb-src.sources) and apt-get update need root: run this"
    log "configure once as root, or use an installed Kokkos (3.4 or 4.x, with Kokkos Kernels): cmake ..."
    log "-DKokkos_ROOT=/path/to/kokkos -DKokkosKernels_ROOT=/path/to/kokkos-kernels (docs/building.md)"
    exit 1
  fi
  local list=/etc/apt/sources.list.d/seistencil-deb-src.sources
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > "$list"
  elif [ -f /etc/apt/sources.list ]; then
    sed -n 's/^deb /deb-src /p' /etc/apt/sources.list > "${list%.sources}.list"
  else
    log "no Debian apt sources found to derive deb-src entries from"; exit 1
  fi
  log "added deb-src entries ($list); apt-get update"
  apt-get update -qq
}

fetch_sources() {
  [ -d "$kokkos_src" ] && [ -d "$kernels_src" ] && return
  mkdir -p "$src_root"
  # One fetch at a time: bootstraps of other keys running at once (CI's device checks beside its host stages) would
  # each replace the sources the other is copying, and apt-get update takes a lock of its own.
  exec 9> "$src_root/fetch.lock"
  flock 9
  if [ -d "$kokkos_src" ] && [ -d "$kernels_src" ]; then flock -u 9; return; fi
  local dl; dl=$(mktemp -d "$src_root/download.XXXX")
  ensure_deb_src
  log "apt-get source trilinos ${trilinos_version} (orig tarball ~166 MB)"
  (cd "$dl" && apt-get source --download-only -qq "trilinos=${trilinos_version}-4" >/dev/null 2>&1 ||
     apt-get source --download-only -qq trilinos >/dev/null)
  local tarball; tarball=$(ls "$dl"/trilinos_${trilinos_version}.orig.tar.* | head -n 1)
  local top; top=$( (tar -tf "$tarball" || true) | head -n 1 | cut -d/ -f1)
  log "extracting packages/kokkos and packages/kokkos-kernels"
  tar -xf "$tarball" -C "$dl" "$top/packages/kokkos" "$top/packages/kokkos-kernels"
  rm -rf "$kokkos_src" "$kernels_src"
  mv "$dl/$top/packages/kokkos" "$kokkos_src"
  mv "$dl/$top/packages/kokkos-kernels" "$kernels_src"
  rm -rf "$dl"
  flock -u 9
}

fetch_sources

work=$(mktemp -d "${prefix}.build.XXXX")
trap 'rm -rf "$work"' EXIT
cp -r "$kokkos_src" "$work/kokkos"
for patch in "$here"/patches/kokkos-3.4.01-*.patch; do
  log "applying $(basename "$patch")"
  patch -s -p1 -d "$work/kokkos" < "$patch"
done

kokkos_cxx=$cxx
arch_flags=()
case "$backend" in
  OPENMP) backend_options=(-DKokkos_ENABLE_OPENMP=ON) ;;
  CUDA)
    kokkos_cxx="$kokkos_src/bin/nvcc_wrapper"
    # nvcc_wrapper defaults to -arch=sm_35, which CUDA 13 rejects, before Kokkos adds its own arch flag.
    declare -A sm=([HOPPER90]=sm_90 [AMPERE80]=sm_80 [AMPERE86]=sm_86 [VOLTA70]=sm_70)
    arch_flags=("-DCMAKE_CXX_FLAGS=-arch=${sm[$arch]}")
    backend_options=(-DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON) ;;
  HIP)
    # Kokkos 3.4 knows gfx908 (VEGA908) but not gfx90a; the project adds --offload-arch for the MI250X itself.
    arch_flags=("-DCMAKE_CXX_FLAGS=--offload-arch=gfx90a --offload-arch=gfx908")
    backend_options=(-DKokkos_ENABLE_HIP=ON) ;;
  *) log "unknown backend '$backend' (OPENMP, CUDA or HIP)"; exit 1 ;;
esac
[ "$arch" != none ] && backend_options+=("-DKokkos_ARCH_${arch}=ON")
read -r -a extra <<< "$extra_options"

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)

log "configuring Kokkos 3.4.01 ($backend, arch $arch, $build_type) with $kokkos_cxx"
cmake -S "$work/kokkos" -B "$work/build-kokkos" "${generator[@]}" -Wno-dev \
  -DCMAKE_BUILD_TYPE="$build_type" -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_CXX_COMPILER="$kokkos_cxx" \
  -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF -DKokkos_ENABLE_SERIAL=ON \
  "${backend_options[@]}" "${arch_flags[@]}" "${extra[@]}" > "$work/kokkos-configure.log" 2>&1 ||
  { tail -n 40 "$work/kokkos-configure.log" >&2; exit 1; }
log "building Kokkos (-j$jobs; a few minutes on 2 cores, more for CUDA)"
build Kokkos "$work/kokkos-build.log" "$work/build-kokkos" -j "$jobs"
cmake --install "$work/build-kokkos" > /dev/null

# Kokkos Kernels header-only: every explicit instantiation off (with CUDA they take ~20 minutes on 2 cores).
eti_off=()
for option in DOUBLE FLOAT COMPLEX_DOUBLE COMPLEX_FLOAT ORDINAL_INT ORDINAL_INT64_T OFFSET_INT OFFSET_SIZE_T \
              LAYOUTLEFT LAYOUTRIGHT EXECSPACE_OPENMP EXECSPACE_SERIAL EXECSPACE_CUDA EXECSPACE_HIP \
              MEMSPACE_CUDASPACE MEMSPACE_CUDAUVMSPACE MEMSPACE_HIPSPACE MEMSPACE_HOSTSPACE; do
  eti_off+=("-DKokkosKernels_INST_${option}=OFF")
done
log "configuring Kokkos Kernels 3.4.01 (header-only)"
cmake -S "$kernels_src" -B "$work/build-kernels" "${generator[@]}" -Wno-dev \
  -DCMAKE_BUILD_TYPE="$build_type" -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_CXX_COMPILER="$kokkos_cxx" \
  -DCMAKE_CXX_STANDARD=17 -DKokkos_ROOT="$prefix" "${arch_flags[@]}" \
  -DKokkosKernels_ENABLE_TPL_CUBLAS=OFF -DKokkosKernels_ENABLE_TPL_CUSPARSE=OFF \
  "${eti_off[@]}" > "$work/kernels-configure.log" 2>&1 ||
  { tail -n 40 "$work/kernels-configure.log" >&2; exit 1; }
build "Kokkos Kernels" "$work/kernels-build.log" "$work/build-kernels" -j "$jobs"
cmake --install "$work/build-kernels" > /dev/null
touch "$prefix/.seistencil-complete"
log "installed into $prefix"

#!/usr/bin/env bash
# Installs the Debian 12 packages seistencil builds with; only what is missing, so a second run costs nothing.
# usage: scripts/install-deps.sh [host|hip|mpi|plot|ci]...   (default: host; ci: what .ci/run adds, ccache)
# Kokkos itself is not a Debian package here: CMake bootstraps it (cmake/bootstrap-kokkos.sh).
set -euo pipefail
groups=("${@:-host}")
packages=()
for group in "${groups[@]}"; do
  case "$group" in
    host) packages+=(g++ cmake ninja-build git patch xz-utils dpkg-dev clang-format libgtest-dev libcli11-dev nlohmann-json3-dev
                  libsegyio-dev libtomlplusplus-dev libstb-dev zlib1g-dev libcairo2-dev libfreetype-dev fonts-dejavu-core
                  pkg-config python3-segyio liblbfgsb-dev liblapack-dev
                  python3-numpy python3-dev pybind11-dev python3-pytest python3-matplotlib) ;;
    hip)  packages+=(hipcc libamdhip64-dev rocm-device-libs) ;;
    mpi)  packages+=(libopenmpi-dev openmpi-bin) ;;
    plot) packages+=(python3 python3-matplotlib) ;;
    ci)   packages+=(ccache) ;;
    *) echo "install-deps.sh: unknown group '$group' (host, hip, mpi, plot, ci)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps.sh: missing packages ${missing[*]}; run as root or install them" >&2; exit 1
fi
echo "[seistencil] apt-get install ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

# shellcheck shell=bash
# Sourced by the scripts that carry programs to the GPU machines (carry-build.sh, mpi-bundle.sh,
# python-bundle.sh): copy_libraries FROM TO [EXCLUDE] copies into TO every shared library that the executables and
# shared objects under FROM need, except the C and C++ runtimes every image has and what the extended regular
# expression EXCLUDE matches. ldd's complaints about files that are not dynamic programs (scripts) are ignored.
copy_libraries() {
  local from=$1 to=$2 exclude=${3:-'^$'}
  find "$from" -type f \( -name '*.so*' -o -perm -u+x \) -print0 |
    { xargs -0 ldd 2>/dev/null || true; } | awk '/=> \//{print $3}' | sort -u |
    grep -Ev '/(libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s|ld-linux-x86-64)\.so' |
    { grep -Ev "$exclude" || true; } | while read -r so; do cp -L "$so" "$to/"; done
}

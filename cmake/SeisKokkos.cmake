# Provides the imported targets Kokkos::kokkos and Kokkos::kokkoskernels with the backend SEIS_BACKEND.
#
# 1. A Kokkos (3.4 or newer, 4.x too) already installed and visible to find_package (Kokkos_ROOT,
#    CMAKE_PREFIX_PATH) is used if kokkos_check finds the backend in it and Kokkos Kernels is installed too.
# 2. Otherwise cmake/bootstrap-kokkos.sh builds Kokkos 3.4.01 and Kokkos Kernels 3.4.01 from Debian's trilinos
#    source package with cmake/patches/ into a cache outside the tree, keyed so the next configure reuses it.
set(SEIS_BACKEND OPENMP CACHE STRING "Kokkos device backend: OPENMP, CUDA or HIP")
set_property(CACHE SEIS_BACKEND PROPERTY STRINGS OPENMP CUDA HIP)
set(SEIS_KOKKOS_ARCH none CACHE STRING "Kokkos_ARCH_<name> for a bootstrapped Kokkos (HOPPER90, AMPERE80, VEGA908, none)")
set(SEIS_KOKKOS_OPTIONS "" CACHE STRING "extra -D options for a bootstrapped Kokkos, e.g. -DKokkos_ENABLE_DEBUG_BOUNDS_CHECK=ON")
option(SEIS_KOKKOS_BOOTSTRAP "build Kokkos 3.4.01 from Debian's trilinos source package if no installed one fits" ON)

if(NOT SEIS_BACKEND MATCHES "^(OPENMP|CUDA|HIP)$")
  message(FATAL_ERROR "SEIS_BACKEND='${SEIS_BACKEND}': expected OPENMP, CUDA or HIP")
endif()

# What compiled the kernels, for cache keys and benchmark reports.
set(SEIS_COMPILER_DESCRIPTION "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
if(SEIS_BACKEND STREQUAL "CUDA")
  execute_process(COMMAND nvcc --version OUTPUT_VARIABLE nvcc_version_text RESULT_VARIABLE nvcc_missing)
  if(nvcc_missing OR NOT nvcc_version_text MATCHES "release ([0-9.]+)")
    message(FATAL_ERROR "SEIS_BACKEND=CUDA needs nvcc on PATH (e.g. PATH=/usr/local/cuda/bin:$PATH)")
  endif()
  set(SEIS_NVCC_VERSION ${CMAKE_MATCH_1})
  set(SEIS_COMPILER_DESCRIPTION "nvcc ${SEIS_NVCC_VERSION} with ${SEIS_COMPILER_DESCRIPTION}")
elseif(SEIS_BACKEND STREQUAL "HIP")
  get_filename_component(compiler_name "${CMAKE_CXX_COMPILER}" NAME)
  if(NOT compiler_name MATCHES "hipcc")
    message(FATAL_ERROR "SEIS_BACKEND=HIP compiles with hipcc, not ${CMAKE_CXX_COMPILER}: configure a new build "
                        "directory with -DCMAKE_CXX_COMPILER=hipcc (or none: hipcc is then found on PATH), or use "
                        "cmake --preset hip")
  endif()
endif()

set(SEIS_KOKKOS_DEVICE ${SEIS_BACKEND})
# The Python module (SEIS_PYTHON): OpenMP or CUDA without the sanitizers; everything position-independent for it.
set(SEIS_PYTHON_MODULE OFF)
if(SEIS_PYTHON AND SEIS_BACKEND MATCHES "^(OPENMP|CUDA)$" AND NOT SEIS_SANITIZE)
  set(SEIS_PYTHON_MODULE ON)
  set(CMAKE_POSITION_INDEPENDENT_CODE ON)
endif()
add_subdirectory(${CMAKE_CURRENT_LIST_DIR}/kokkos_probe ${CMAKE_BINARY_DIR}/kokkos_probe)
if(SEIS_KOKKOS_PROBE_ACCEPTED AND NOT SEIS_KOKKOS_PROBE_KERNELS_FOUND)
  set(SEIS_KOKKOS_PROBE_ACCEPTED FALSE)
  message(STATUS "Kokkos ${SEIS_KOKKOS_PROBE_VERSION} at ${SEIS_KOKKOS_PROBE_DIR} has no Kokkos Kernels beside it: not used")
elseif(NOT SEIS_KOKKOS_PROBE_ACCEPTED AND SEIS_KOKKOS_PROBE_DIR)
  message(STATUS "Kokkos ${SEIS_KOKKOS_PROBE_VERSION} at ${SEIS_KOKKOS_PROBE_DIR} has devices "
                 "'${SEIS_KOKKOS_PROBE_DEVICES}', not ${SEIS_BACKEND}: not used")
endif()

if(DEFINED ENV{SEIS_DEPS_CACHE})
  set(cache_root "$ENV{SEIS_DEPS_CACHE}")
elseif(DEFINED ENV{XDG_CACHE_HOME})
  set(cache_root "$ENV{XDG_CACHE_HOME}/seistencil")
else()
  set(cache_root "$ENV{HOME}/.cache/seistencil")
endif()
# A Kokkos this project bootstrapped, found again through an earlier configure's cache, may carry a stale key (a
# patch changed since): the bootstrap below takes the current key's.
string(FIND "${SEIS_KOKKOS_PROBE_DIR}" "${cache_root}/kokkos-3.4.01-" bootstrapped_at)
if(SEIS_KOKKOS_PROBE_ACCEPTED AND bootstrapped_at EQUAL 0)
  set(SEIS_KOKKOS_PROBE_ACCEPTED FALSE)
endif()

if(SEIS_KOKKOS_PROBE_ACCEPTED)
  find_package(Kokkos CONFIG REQUIRED PATHS "${SEIS_KOKKOS_PROBE_DIR}" NO_DEFAULT_PATH)
  find_package(KokkosKernels CONFIG REQUIRED)
  message(STATUS "Using installed Kokkos ${Kokkos_VERSION} (${Kokkos_DIR})")
else()
  if(SEIS_BACKEND STREQUAL "CUDA" AND NOT SEIS_KOKKOS_ARCH MATCHES "^(HOPPER90|AMPERE80|AMPERE86|VOLTA70)$")
    message(FATAL_ERROR "A CUDA Kokkos is bootstrapped for one GPU architecture, and '${SEIS_KOKKOS_ARCH}' is not "
                        "one it builds: add -DKokkos_ARCH_HOPPER90=ON (H100), AMPERE80 (A100), AMPERE86 or VOLTA70 "
                        "(or SEIS_KOKKOS_ARCH=HOPPER90, as --preset cuda does), or point Kokkos_ROOT at an installed "
                        "CUDA Kokkos")
  endif()
  if(NOT SEIS_KOKKOS_BOOTSTRAP)
    message(FATAL_ERROR "No installed Kokkos with backend ${SEIS_BACKEND} and Kokkos Kernels was found "
                        "(set Kokkos_ROOT and KokkosKernels_ROOT), and SEIS_KOKKOS_BOOTSTRAP is OFF.")
  endif()

  set(patch_text "")
  file(GLOB patches "${CMAKE_CURRENT_LIST_DIR}/patches/kokkos-3.4.01-*.patch")
  list(SORT patches)
  # Patches named *-cuda-only change only files the CUDA backend compiles: other backends' keys leave them out, so
  # adding one rebuilds only the CUDA install (bootstrap-kokkos.sh applies every patch everywhere).
  if(NOT SEIS_BACKEND STREQUAL "CUDA")
    list(FILTER patches EXCLUDE REGEX "-cuda-only")
  endif()
  foreach(input IN LISTS patches ITEMS "${CMAKE_CURRENT_LIST_DIR}/bootstrap-kokkos.sh")
    file(SHA256 "${input}" input_hash)
    string(APPEND patch_text "${input_hash}")
  endforeach()
  string(SHA256 patch_hash "${patch_text}")
  string(SUBSTRING "${patch_hash}" 0 10 patch_hash)
  # The Python module links Kokkos into a shared object: its static libraries compiled position-independent.
  set(bootstrap_options "${SEIS_KOKKOS_OPTIONS}")
  if(SEIS_PYTHON_MODULE)
    string(STRIP "${bootstrap_options} -DCMAKE_POSITION_INDEPENDENT_CODE=ON" bootstrap_options)
  endif()
  string(SHA256 options_hash "${bootstrap_options}")
  string(SUBSTRING "${options_hash}" 0 8 options_hash)

  set(compiler_key "${CMAKE_CXX_COMPILER_ID}-${CMAKE_CXX_COMPILER_VERSION}")
  if(SEIS_BACKEND STREQUAL "CUDA")
    string(APPEND compiler_key "-nvcc${SEIS_NVCC_VERSION}")
  endif()
  string(TOLOWER "kokkos-3.4.01-${SEIS_BACKEND}-${SEIS_KOKKOS_ARCH}-opt${options_hash}-patch${patch_hash}-${compiler_key}"
         cache_key)
  set(prefix "${cache_root}/${cache_key}")

  file(MAKE_DIRECTORY "${cache_root}")
  file(LOCK "${cache_root}/${cache_key}.lock" TIMEOUT 3600)
  if(NOT EXISTS "${prefix}/.seistencil-complete")
    message(STATUS "Bootstrapping Kokkos 3.4.01 (${SEIS_BACKEND}) into ${prefix}: a few minutes, once per key")
    file(REMOVE_RECURSE "${prefix}")
    execute_process(
      COMMAND bash "${CMAKE_CURRENT_LIST_DIR}/bootstrap-kokkos.sh" "${prefix}" "${SEIS_BACKEND}" "${SEIS_KOKKOS_ARCH}"
              "${CMAKE_CXX_COMPILER}" Release "${bootstrap_options}"
      RESULT_VARIABLE bootstrap_failed)
    if(bootstrap_failed)
      file(LOCK "${cache_root}/${cache_key}.lock" RELEASE)
      message(FATAL_ERROR "Kokkos bootstrap failed (see the messages above)")
    endif()
  endif()
  file(LOCK "${cache_root}/${cache_key}.lock" RELEASE)
  unset(Kokkos_DIR CACHE)
  unset(KokkosKernels_DIR CACHE)
  find_package(Kokkos CONFIG REQUIRED PATHS "${prefix}" NO_DEFAULT_PATH)
  find_package(KokkosKernels CONFIG REQUIRED PATHS "${prefix}" NO_DEFAULT_PATH)
  message(STATUS "Using bootstrapped Kokkos ${Kokkos_VERSION} (${prefix})")
  # cmake --install puts it beside seistencil (SeisInstall.cmake): the cache may be cleared after.
  set(SEIS_KOKKOS_BOOTSTRAPPED_PREFIX "${prefix}")
endif()
kokkos_check(DEVICES ${SEIS_BACKEND})
# The bootstrapped Kokkos 3.4 knows no gfx90a: built for gfx908, it adds that target to every unit beside the
# project's --offload-arch=gfx90a. A compile check may leave gfx908 out: a unit then compiles in about 60% of the
# time (streaming_shapes_r1-4 62 s against 103 s), and the ISA gate and the shapes' resources read gfx90a's code only.
option(SEIS_HIP_GFX908 "HIP builds: also compile for gfx908 (MI100), the target the bootstrapped Kokkos adds" ON)
if(SEIS_BACKEND STREQUAL "HIP" AND NOT SEIS_HIP_GFX908)
  get_target_property(seis_kokkos_options Kokkos::kokkoscore INTERFACE_COMPILE_OPTIONS)
  list(FILTER seis_kokkos_options EXCLUDE REGEX "gfx908")
  set_target_properties(Kokkos::kokkoscore PROPERTIES INTERFACE_COMPILE_OPTIONS "${seis_kokkos_options}")
endif()

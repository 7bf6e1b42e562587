# Included before project(): the flags a Kokkos user types select seistencil's backend, and a plain configure builds
# optimised code.
#   -DKokkos_ENABLE_CUDA=ON | -DKokkos_ENABLE_HIP=ON   ->  SEIS_BACKEND (for a bootstrapped or an installed Kokkos)
#   -DKokkos_ARCH_<NAME>=ON (a GPU architecture)        ->  SEIS_KOKKOS_ARCH (the bootstrapped Kokkos' arch)
# A HIP build compiles with hipcc: chosen here when no compiler was given, refused up front when there is none.
if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  # Without a type CMake passes no optimisation flag: the test suite ran 6-10 x slower.
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Debug, Release, RelWithDebInfo or MinSizeRel (default Release)")
endif()

set(seis_requested)
foreach(backend CUDA HIP)
  if(Kokkos_ENABLE_${backend})
    list(APPEND seis_requested ${backend})
  endif()
endforeach()
list(LENGTH seis_requested seis_requested_count)
if(seis_requested_count GREATER 1)
  message(FATAL_ERROR "Kokkos_ENABLE_CUDA and Kokkos_ENABLE_HIP are both ON: a build has one device backend; "
                      "configure one build directory per backend (e.g. cmake --preset cuda, cmake --preset hip)")
endif()
if(seis_requested_count EQUAL 1)
  if(DEFINED SEIS_BACKEND AND NOT SEIS_BACKEND STREQUAL seis_requested)
    message(FATAL_ERROR "Kokkos_ENABLE_${seis_requested}=ON, but SEIS_BACKEND is ${SEIS_BACKEND} (given, or this build "
                        "directory's from an earlier configure): configure a new build directory with only "
                        "-DKokkos_ENABLE_${seis_requested}=ON")
  endif()
  set(SEIS_BACKEND ${seis_requested} CACHE STRING "Kokkos device backend: OPENMP, CUDA or HIP")
endif()

# The GPU architecture among the Kokkos_ARCH_* options given (a host one may be given beside it).
get_cmake_property(seis_cache_variables CACHE_VARIABLES)
set(seis_gpu_arches)
foreach(variable IN LISTS seis_cache_variables)
  if(variable MATCHES "^Kokkos_ARCH_((KEPLER|MAXWELL|PASCAL|VOLTA|TURING|AMPERE|ADA|HOPPER|VEGA|NAVI|AMD_GFX).*)$"
     AND ${variable})
    list(APPEND seis_gpu_arches ${CMAKE_MATCH_1})
  endif()
endforeach()
list(LENGTH seis_gpu_arches seis_gpu_arch_count)
if(seis_gpu_arch_count GREATER 1)
  message(FATAL_ERROR "several GPU architectures given (${seis_gpu_arches}): one Kokkos_ARCH_<GPU>=ON per build")
endif()
if(seis_gpu_arch_count EQUAL 1 AND NOT DEFINED SEIS_KOKKOS_ARCH)
  set(seis_arch ${seis_gpu_arches})
  # The bootstrapped Kokkos 3.4 knows no gfx90a: it is built for gfx908 and the project adds --offload-arch=gfx90a.
  if(seis_arch MATCHES "^(VEGA90A|AMD_GFX90A)$")
    set(seis_arch VEGA908)
  endif()
  set(SEIS_KOKKOS_ARCH ${seis_arch} CACHE STRING "Kokkos_ARCH_<name> for a bootstrapped Kokkos")
endif()

if(SEIS_BACKEND STREQUAL "HIP" AND NOT DEFINED SEIS_KOKKOS_ARCH)
  message(STATUS "HIP without a Kokkos_ARCH_<GPU>: built for gfx90a (MI250X) and gfx908 (MI100), as --preset hip")
  set(SEIS_KOKKOS_ARCH VEGA908 CACHE STRING "Kokkos_ARCH_<name> for a bootstrapped Kokkos")
endif()
if(SEIS_BACKEND STREQUAL "HIP" AND NOT CMAKE_CXX_COMPILER)
  find_program(SEIS_HIPCC hipcc)
  if(NOT SEIS_HIPCC)
    message(FATAL_ERROR "SEIS_BACKEND=HIP (or -DKokkos_ENABLE_HIP=ON) compiles with hipcc, which is not on PATH: "
                        "scripts/install-deps.sh hip installs Debian's, or pass -DCMAKE_CXX_COMPILER=/path/to/hipcc")
  endif()
  set(CMAKE_CXX_COMPILER ${SEIS_HIPCC})
  if(NOT CMAKE_CXX_FLAGS)
    set(CMAKE_CXX_FLAGS "--offload-arch=gfx90a" CACHE STRING "flags of the C++ compiler")
  endif()
endif()

# SEIS_BACKENDS: the Kokkos execution spaces the kernel registry (and so the tests) is compiled for. The first is
# the one the benchmarks run on (Kokkos' default execution space). Serial is there on request (OpenMP;Serial): its
# instantiations and tests took a sixth of CI's two cores (the same host code paths as OpenMP's, one thread).
if(SEIS_BACKEND STREQUAL "OPENMP")
  set(default_backends OpenMP)
elseif(SEIS_BACKEND STREQUAL "CUDA")
  set(default_backends Cuda)
else()
  set(default_backends HIP)
endif()
set(SEIS_BACKENDS "${default_backends}" CACHE STRING "execution spaces to instantiate kernels for (Serial, OpenMP, Cuda, HIP)")

set(SEIS_BACKEND_TYPE_Serial "Kokkos::Serial")
set(SEIS_BACKEND_TYPE_OpenMP "Kokkos::OpenMP")
set(SEIS_BACKEND_TYPE_Cuda "Kokkos::Cuda")
set(SEIS_BACKEND_TYPE_HIP "seis::compat::HIP")
foreach(backend IN LISTS SEIS_BACKENDS)
  if(NOT DEFINED SEIS_BACKEND_TYPE_${backend})
    message(FATAL_ERROR "SEIS_BACKENDS: unknown backend '${backend}' (Serial, OpenMP, Cuda, HIP)")
  endif()
  string(TOUPPER ${backend} upper)
  kokkos_check(DEVICES ${upper} RETURN_VALUE available)
  if(NOT available)
    message(FATAL_ERROR "SEIS_BACKENDS names ${backend}, which this Kokkos was not built with")
  endif()
endforeach()

# Host builds are warning-free; device compilers' own diagnostics on Kokkos headers are not ours to fix.
# HOST_ONLY: a target that does not link Kokkos, so the plain C++ compiler builds it even in CUDA builds.
function(seis_target_warnings target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "HOST_ONLY" "" "")
  if(SEIS_WARNINGS_AS_ERRORS AND SEIS_BACKEND STREQUAL "OPENMP" AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror)
  endif()
  # A host function called from device code compiles to undefined behaviour (seen: kernels that silently wrote
  # nothing); nvcc only warns about it, so make it an error.
  if(SEIS_BACKEND STREQUAL "CUDA" AND NOT arg_HOST_ONLY)
    foreach(diagnostic 20011 20012 20013 20014 20015)
      target_compile_options(${target} PRIVATE "SHELL:-Xcudafe --diag_error=${diagnostic}")
    endforeach()
  endif()
  if(SEIS_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()

#pragma once
// The one place where Kokkos 3.4 and 4.x differ for seistencil.
#include <Kokkos_Core.hpp>
#include <stdexcept>
#include <string>

#if !defined(KOKKOS_VERSION) || KOKKOS_VERSION < 30400
#error "seistencil needs Kokkos 3.4 or newer"
#endif

namespace seis::compat {

#if defined(KOKKOS_ENABLE_HIP)
#if KOKKOS_VERSION >= 40000
using HIP = Kokkos::HIP;
using HIPSpace = Kokkos::HIPSpace;
#else
using HIP = Kokkos::Experimental::HIP;
using HIPSpace = Kokkos::Experimental::HIPSpace;
#endif
#endif

// Kokkos 3.4 does not check the launch status of a kernel in release builds: a launch the device refuses
// (resources, configuration) would go unnoticed. Throws with the runtime's message instead.
inline void check_last_launch(const char* what) {
#if defined(KOKKOS_ENABLE_CUDA)
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": CUDA launch failed: " + cudaGetErrorString(status));
#elif defined(KOKKOS_ENABLE_HIP)
  const hipError_t status = hipGetLastError();
  if (status != hipSuccess)
    throw std::runtime_error(std::string(what) + ": HIP launch failed: " + hipGetErrorString(status));
#else
  (void)what;
#endif
}

}  // namespace seis::compat

// Device-code detection: Kokkos 4 has KOKKOS_IF_ON_DEVICE, Kokkos 3.4 does not; the compiler macros work in both.
#if defined(__CUDA_ARCH__)
#define SEIS_DEVICE_CUDA 1
#elif defined(__HIP_DEVICE_COMPILE__)
#define SEIS_DEVICE_HIP 1
#endif

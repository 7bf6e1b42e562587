#include "seis/core/compat.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace seis::compat {

std::string host_processor_name() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "host";
}

void default_thread_placement() {
  setenv("OMP_PROC_BIND", "spread", 0);
  setenv("OMP_PLACES", "threads", 0);
}

std::string thread_placement() {
  std::string text;
  for (const char* name : {"OMP_PROC_BIND", "OMP_PLACES"}) {
    const char* value = std::getenv(name);
    text += std::string(text.empty() ? "" : " ") + name + "=" + (value ? value : "(unset)");
  }
  return text;
}

int device_count() {
  int count = 1;
#if defined(KOKKOS_ENABLE_CUDA)
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 1;
#elif defined(KOKKOS_ENABLE_HIP)
  if (hipGetDeviceCount(&count) != hipSuccess) count = 1;
#endif
  return count > 0 ? count : 1;
}

std::size_t available_memory_bytes() {
#if defined(KOKKOS_ENABLE_CUDA)
  std::size_t free_bytes = 0, total = 0;
  if (cudaMemGetInfo(&free_bytes, &total) == cudaSuccess) return free_bytes;
#elif defined(KOKKOS_ENABLE_HIP)
  std::size_t free_bytes = 0, total = 0;
  if (hipMemGetInfo(&free_bytes, &total) == hipSuccess) return free_bytes;
#endif
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string key;
    std::size_t kib = 0;
    if (fields >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  return static_cast<std::size_t>(-1);
}

}  // namespace seis::compat

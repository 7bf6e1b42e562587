#pragma once
// A named region for Kokkos' tools (a space-time stack, NVTX or ROCTX connectors, a test's callbacks), open for the
// scope that declares it. Without a tool it costs a load and a branch: no name is built, nothing is fenced.
#include <Kokkos_Core.hpp>
#include <string>

namespace seis {

class ProfilingRegion {
 public:
  explicit ProfilingRegion(const char* name) : open_(Kokkos::Profiling::profileLibraryLoaded()) {
    if (open_) Kokkos::Profiling::pushRegion(std::string(name));
  }
  ~ProfilingRegion() {
    if (open_) Kokkos::Profiling::popRegion();
  }
  ProfilingRegion(const ProfilingRegion&) = delete;
  ProfilingRegion& operator=(const ProfilingRegion&) = delete;

 private:
  bool open_;
};

}  // namespace seis

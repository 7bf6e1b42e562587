#pragma once
// Host values copied to a Kokkos memory space, for the set-up of the simulation and the imaging operators.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace seis {

// A device copy of host values (at least one element, so that an empty list still has a pointer to pass).
template <class Memory, class T>
Kokkos::View<T*, Memory> to_device(const std::string& label, const std::vector<T>& host) {
  Kokkos::View<T*, Memory> view(label, std::max<std::size_t>(host.size(), 1));
  if (!host.empty()) {
    Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> source(host.data(), host.size());
    Kokkos::deep_copy(Kokkos::subview(view, std::make_pair(std::size_t(0), host.size())), source);
  }
  return view;
}

}  // namespace seis

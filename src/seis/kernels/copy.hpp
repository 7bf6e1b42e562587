#pragma once
// The bandwidth yardstick: a 128-bit vector copy of a whole field (halo and padding included), the tuned copy
// that every benchmark figure is a percentage of.
#include <algorithm>

#include "seis/core/field.hpp"
#include "seis/core/memory_ops.hpp"
#include "seis/kernels/team_launch.hpp"

namespace seis {

struct VectorCopy {
  const float* in;
  float* out;
  KOKKOS_FUNCTION void operator()(index_t n) const { store_pack(out + 4 * n, load_pack<4>(in + 4 * n)); }
};

// Host backends: chunks of the field copied with streaming stores (store_row), as the kernels store with
// --nontemporal on. A plain store first reads the line it overwrites, so a plain copy moves three bytes for every
// two it counts; on a 2-core Xeon it ran at 28-35 GB/s where the streaming copy ran at 46-55, and kernels with
// streaming stores then beat their own yardstick (x_vec at 117% of it, perf/NOTES.md 63).
struct HostStreamingCopy {
  static constexpr index_t chunk = 1 << 14;  // floats: 64 KiB, a multiple of the 64-byte lines
  const float* in;
  float* out;
  index_t size;
  void operator()(index_t c) const {
    const index_t begin = c * chunk;
    store_row(out + begin, in + begin, static_cast<int>(std::min(chunk, size - begin)), true);
    nontemporal_fence();
  }
};

// Field sizes are multiples of 64 floats (layout.hpp), so the copy needs no remainder.
template <class ExecSpace>
void vector_copy(const ExecSpace& exec, const Field<typename ExecSpace::memory_space>& in,
                 const Field<typename ExecSpace::memory_space>& out) {
  const auto size = static_cast<index_t>(in.layout().size);
  if constexpr (is_gpu_space<ExecSpace>()) {
    Kokkos::parallel_for("seis::vector_copy",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(exec, 0, size / 4),
                         VectorCopy{in.data(), out.data()});
  } else {
    const index_t chunks = (size + HostStreamingCopy::chunk - 1) / HostStreamingCopy::chunk;
    Kokkos::parallel_for("seis::vector_copy",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(exec, 0, chunks),
                         HostStreamingCopy{in.data(), out.data(), size});
  }
}

}  // namespace seis

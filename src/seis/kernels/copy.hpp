#pragma once
// The bandwidth yardstick: a 128-bit vector copy of a whole field (halo and padding included), the tuned copy
// that every benchmark figure is a percentage of.
#include "seis/core/field.hpp"
#include "seis/core/memory_ops.hpp"

namespace seis {

struct VectorCopy {
  const float* in;
  float* out;
  KOKKOS_FUNCTION void operator()(index_t n) const { store_pack(out + 4 * n, load_pack<4>(in + 4 * n)); }
};

// Field sizes are multiples of 64 floats (layout.hpp), so the copy needs no remainder.
template <class ExecSpace>
void vector_copy(const ExecSpace& exec, const Field<typename ExecSpace::memory_space>& in,
                 const Field<typename ExecSpace::memory_space>& out) {
  const auto vectors = static_cast<index_t>(in.layout().size / 4);
  Kokkos::parallel_for("seis::vector_copy",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(exec, 0, vectors),
                       VectorCopy{in.data(), out.data()});
}

}  // namespace seis

#pragma once
// Memory layout of a 3D field with a halo: x is contiguous, every row's first interior point sits on a
// 256-byte boundary (lead padding before it, row padding after it), so vector loads of interior rows are aligned.
#include <Kokkos_Core.hpp>
#include <cstddef>

namespace seis {

// 32-bit offsets: half the index arithmetic of 64-bit on GPUs. make_layout refuses grids that would overflow it.
using index_t = int;

inline constexpr int max_radius = 8;
inline constexpr int alignment_bytes = 256;
inline constexpr int alignment_floats = alignment_bytes / static_cast<int>(sizeof(float));

struct FieldLayout {
  int nx = 0, ny = 0, nz = 0;  // interior points
  int halo = 0;                // halo width on every side, >= the stencil radius
  int lead = 0;                // floats in a row before interior x = 0 (a multiple of alignment_floats, >= halo)
  index_t ldx = 0;             // row pitch in floats (a multiple of alignment_floats, >= lead + round_up(nx, 4) +
                               // round_up(halo, 4), so 4-float vectors of the row's halo stay in the row)
  index_t ldy = 0;             // rows per plane: ny + 2 * halo
  index_t plane = 0;           // plane pitch in floats: ldx * ldy
  std::size_t size = 0;        // floats in the whole field: plane * (nz + 2 * halo)

  // Offset of point (i, j, k) of the interior; halo points have coordinates in [-halo, 0) and [n, n + halo).
  KOKKOS_INLINE_FUNCTION index_t offset(int i, int j, int k) const {
    return (k + halo) * plane + (j + halo) * ldx + lead + i;
  }
  KOKKOS_INLINE_FUNCTION std::size_t interior_points() const {
    return static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny) * static_cast<std::size_t>(nz);
  }
  friend bool operator==(const FieldLayout& a, const FieldLayout& b) {
    return a.nx == b.nx && a.ny == b.ny && a.nz == b.nz && a.halo == b.halo && a.lead == b.lead && a.ldx == b.ldx;
  }
  friend bool operator!=(const FieldLayout& a, const FieldLayout& b) { return !(a == b); }
};

// Throws seis::InvalidArgument for sizes < 1, a halo outside [0, max_radius] or a field whose offsets overflow
// index_t.
FieldLayout make_layout(int nx, int ny, int nz, int halo);

}  // namespace seis

#pragma once
// Memory layout of a 3D field with a halo: x is contiguous, every row's first interior point sits on an
// alignment_bytes boundary (lead padding before it, row padding after it), so vector loads of interior rows are
// aligned.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace seis {

// Offsets into a field are 64-bit, so a field may hold more than 2^31 floats (an 80 GB GPU holds about 1800^3 of
// seis-wave). Offsets within a plane stay 32-bit: offset() is one widening multiply-add (IMAD.WIDE on NVIDIA) on
// top of 32-bit arithmetic, as cheap as all-32-bit offsets. make_layout refuses planes beyond 2^31 floats.
using index_t = std::int64_t;

inline constexpr int max_radius = 8;
// The deepest halo a field may have: the variable-density operator reaches 2R - 1 points (seis/wave/density.hpp).
inline constexpr int max_halo = 2 * max_radius - 1;
// Rows start on 256 bytes in GPU builds (a warp's vectors cover whole 128-byte lines) and on 64 bytes (a cache line,
// one AVX-512 register) in host builds: a 256-byte lead and tail pad a 256-float row by half, and the host's
// prefetchers stream into the padding (a plain loop at 256^3, R = 4: 1.36 GPts/s at a 288-float pitch, 0.92 at
// 384; perf/NOTES.md 34).
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
inline constexpr int alignment_bytes = 256;
#else
inline constexpr int alignment_bytes = 64;
#endif
inline constexpr int alignment_floats = alignment_bytes / static_cast<int>(sizeof(float));

struct FieldLayout {
  int nx = 0, ny = 0, nz = 0;  // interior points
  int halo = 0;                // halo width on every side, >= the stencil radius
  int lead = 0;                // floats in a row before interior x = 0 (a multiple of alignment_floats, >= halo)
  int ldx = 0;                 // row pitch in floats (a multiple of alignment_floats, >= lead + round_up(nx, 4) +
                               // round_up(halo, 4), so 4-float vectors of the row's halo stay in the row)
  int ldy = 0;                 // rows per plane: ny + 2 * halo
  int plane = 0;               // plane pitch in floats: ldx * ldy
  std::size_t size = 0;        // floats in the whole field: plane * (nz + 2 * halo)

  // Offset of point (i, j, k) of the interior; halo points have coordinates in [-halo, 0) and [n, n + halo).
  KOKKOS_INLINE_FUNCTION index_t offset(int i, int j, int k) const { return plane_offset(k) + in_plane(i, j); }
  // The two parts of offset(): plane k's first float, and (i, j)'s place in its plane.
  KOKKOS_INLINE_FUNCTION index_t plane_offset(int k) const { return index_t(k + halo) * plane; }
  KOKKOS_INLINE_FUNCTION int in_plane(int i, int j) const { return (j + halo) * ldx + lead + i; }
  // The point at offset c: offset()'s inverse (two 64-bit divisions: for a few points, not a grid's).
  KOKKOS_INLINE_FUNCTION void point(index_t c, int& i, int& j, int& k) const {
    k = int(c / plane) - halo;
    const int within = int(c % plane);
    j = within / ldx - halo;
    i = within % ldx - lead;
  }
  KOKKOS_INLINE_FUNCTION std::size_t interior_points() const {
    return static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny) * static_cast<std::size_t>(nz);
  }
  friend bool operator==(const FieldLayout& a, const FieldLayout& b) {
    return a.nx == b.nx && a.ny == b.ny && a.nz == b.nz && a.halo == b.halo && a.lead == b.lead && a.ldx == b.ldx;
  }
  friend bool operator!=(const FieldLayout& a, const FieldLayout& b) { return !(a == b); }
};

// Throws seis::InvalidArgument for sizes < 1, a halo outside [0, max_halo] or a plane whose in-plane offsets
// overflow 32 bits.
FieldLayout make_layout(int nx, int ny, int nz, int halo);

// The same memory with y and z exchanged: point (i, k, j) of the view is point (i, j, k) of `L`, so a kernel that
// walks planes walks rows through it. Its planes are L's rows and its in-plane offsets span L's whole field, so it
// throws seis::InvalidArgument for fields of more than 2^31 - 1 floats.
// The interior's values of `field` (the layout's, on the host), x fastest: its rows copied out on every CPU (one
// thread took 0.5 s a volume at 512^3).
std::vector<float> interior_values(const FieldLayout& L, const float* field);
FieldLayout transposed_yz(const FieldLayout& L);

}  // namespace seis

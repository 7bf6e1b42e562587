#include "seis/core/layout.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

#include "seis/core/error.hpp"
#include "seis/core/host_parallel.hpp"

namespace seis {

namespace {
std::int64_t round_up(std::int64_t value, std::int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}
}  // namespace

FieldLayout make_layout(int nx, int ny, int nz, int halo) {
  require(nx >= 1, "grid size nx = ", nx, " must be >= 1");
  require(ny >= 1, "grid size ny = ", ny, " must be >= 1");
  require(nz >= 1, "grid size nz = ", nz, " must be >= 1");
  require(halo >= 0 && halo <= max_halo, "halo = ", halo, " must be in [0, ", max_halo, "]");

  const std::int64_t lead = round_up(halo, alignment_floats);
  // Room for whole 4-float vectors past the row's end: a vector kernel may read [round_up(nx, 4),
  // round_up(nx, 4) + round_up(halo, 4)) without leaving the row.
  const std::int64_t ldx = round_up(lead + round_up(nx, 4) + round_up(halo, 4), alignment_floats);
  const std::int64_t ldy = std::int64_t{ny} + 2 * halo;
  const std::int64_t planes = std::int64_t{nz} + 2 * halo;
  const std::int64_t limit = std::numeric_limits<int>::max();
  // nx, ny, nz and halo are ints, so ldx, ldy and planes are below 2^33 and their products fit int64.
  require(ldx * ldy <= limit, "grid ", nx, " x ", ny, " x ", nz, " with halo ", halo, " has planes of ", ldx * ldy,
          " padded points, more than the 32-bit in-plane offset limit of ", limit);

  FieldLayout layout;
  layout.nx = nx;
  layout.ny = ny;
  layout.nz = nz;
  layout.halo = halo;
  layout.lead = static_cast<int>(lead);
  layout.ldx = static_cast<int>(ldx);
  layout.ldy = static_cast<int>(ldy);
  layout.plane = static_cast<int>(ldx * ldy);
  layout.size = static_cast<std::size_t>(ldx * ldy * planes);
  return layout;
}

std::vector<float> interior_values(const FieldLayout& L, const float* field) {
  std::vector<float> out(L.interior_points());
  const std::size_t row = std::size_t(L.nx);
  host_parallel_for(
      std::size_t(L.ny) * std::size_t(L.nz),
      [&](std::size_t begin, std::size_t end) {
        for (std::size_t r = begin; r < end; ++r) {
          const int j = int(r % std::size_t(L.ny)), k = int(r / std::size_t(L.ny));
          std::copy_n(field + L.offset(0, j, k), row, out.data() + r * row);
        }
      },
      64);
  return out;
}

FieldLayout transposed_yz(const FieldLayout& L) {
  const std::size_t limit = static_cast<std::size_t>(std::numeric_limits<int>::max());
  require(L.size <= limit, "grid ", L.nx, " x ", L.ny, " x ", L.nz, " with halo ", L.halo, " has ", L.size,
          " padded points; walking y through a y-z transposed view needs its offsets within the 32-bit limit of ",
          limit);
  FieldLayout t = L;
  std::swap(t.ny, t.nz);
  t.ldx = L.plane;
  t.ldy = L.nz + 2 * L.halo;
  t.plane = L.ldx;
  return t;
}

}  // namespace seis

// The PML's launch boxes for the tile engine's two- and seven-domain strategies (line_aligned_boxes): they tile the
// part once, the inner launch's x edges lie on lines where the inner region spans them, and every point of an x
// slab launch lies in that slab's phi rows, whose floats no other slab shares. Every aligned vector's layer lanes
// lie in the one phi row launch_slab names (the GPU epilogues load and store phi as one pack).
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>
#include <utility>
#include <vector>

#include "seis/core/error.hpp"
#include "seis/wave/pml.hpp"
#include "seis/wave/subdomain.hpp"

namespace {

using seis::Box;
using namespace seis::wave;

Subdomain part_of(int nx, int ny, int nz, int z_offset, int z_size) {
  Subdomain p;
  p.global[0] = p.size[0] = nx;
  p.global[1] = p.size[1] = ny;
  p.global[2] = nz;
  p.offset[2] = z_offset;
  p.size[2] = z_size;
  return p;
}

bool holds(const Box& b, int i, int j, int k) {
  return i >= b.x0 && i < b.x1 && j >= b.y0 && j < b.y1 && k >= b.z0 && k < b.z1;
}

TEST(PmlGeometry, LaunchBoxesTileThePartOnLines) {
  // (nx, thickness, z offset, z size of a part of nz = 20): both x edges widened, one on a line already, none
  // (narrow inner regions), no layer, and a part of a z decomposition.
  for (auto [nx, d, z0, nz] :
       {std::tuple{512, 6, 0, 20}, std::tuple{75, 5, 0, 20}, std::tuple{70, 6, 0, 20}, std::tuple{37, 5, 0, 20},
        std::tuple{18, 5, 0, 20}, std::tuple{21, 5, 0, 20}, std::tuple{100, 0, 0, 20}, std::tuple{130, 4, 7, 9}}) {
    const int ny = 13;
    const PmlGeometry g = make_pml_geometry(part_of(nx, ny, 20, z0, nz), d);
    SCOPED_TRACE(::testing::Message() << "nx " << nx << " thickness " << d << " part z " << z0);
    const LaunchBoxes b = line_aligned_boxes(g);
    EXPECT_TRUE(b.inner.x0 % x_slab_line == 0 || b.inner.x0 == g.inner.x1 / phi_alignment * phi_alignment ||
                g.thickness == 0)
        << b.inner.x0;
    EXPECT_TRUE(b.inner.x1 % x_slab_line == 0 || b.inner.x1 == b.inner.x0 || g.thickness == 0) << b.inner.x1;
    EXPECT_TRUE(g.thickness == 0 || (b.inner.x0 % phi_alignment == 0 && b.inner.x1 % phi_alignment == 0));
    std::vector<int> phi_owner(g.stored(), -1);
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
          int launches = holds(b.inner, i, j, k) ? 1 : 0;
          for (int s = 0; s < slab_count; ++s) {
            if (!holds(b.slab[s], i, j, k)) continue;
            ++launches;
            // The vector's phi row (launch_slab) is this launch's slab, and the point lies in it.
            ASSERT_EQ(g.launch_slab(i, j, k), s) << i << "," << j << "," << k;
            ASSERT_GE(i, g.row_origin[s]);
            ASSERT_LT(i, g.row_origin[s] + g.row_stride[s]);
            const std::ptrdiff_t at = g.slab_index(s, i, j, k);
            ASSERT_GE(at, std::ptrdiff_t(g.first[s]));
            ASSERT_LT(at, std::ptrdiff_t(g.first[s + 1]));
            int& owner = phi_owner[std::size_t(at)];
            ASSERT_TRUE(owner == -1 || owner == s) << "phi float " << at << " of slabs " << owner << " and " << s;
            owner = s;
          }
          ASSERT_EQ(launches, 1) << "point " << i << "," << j << "," << k << " in " << launches << " launches";
          if (!g.is_inner(i, j, k)) {
            ASSERT_EQ(g.launch_slab(i, j, k), g.slab_of(i, j, k));
            // The vector of phi_alignment lanes holding the point: its row is the point's.
            ASSERT_EQ(g.launch_slab(i / phi_alignment * phi_alignment, j, k), g.slab_of(i, j, k)) << i;
          }
        }
  }
}

// The damping profile against the paper's design written here from its definition: a layer of L = d h metres
// damps with d0 (x / L)^2 at depth x into it, d0 = 3 v ln(1 / Rc) / (2 L) for a reflection coefficient Rc =
// 1e-3; the scheme's eta at point i is dt d0 (x / L)^2 with x = h times the points from the inner edge (eta of the
// last inner point and one past the grid included: i = -1 .. n). Float storage: within 2^-23 relative.
TEST(PmlDamping, ProfileIsTheDesignFormula) {
  const double dt = 1.7e-3, v = 4500, h = 12.5, reflection = 1e-3;
  for (auto [n, d] : {std::pair{60, 10}, std::pair{97, 27}, std::pair{40, 1}}) {
    const double L = d * h, d0 = 3 * v * std::log(1 / reflection) / (2 * L);
    const std::vector<float> eta = damping_profile(n, d, damping_scale(dt, v, d, h));
    for (int i = -1; i <= n; ++i) {
      const int from_edge = i < d ? d - i : i > n - 1 - d ? i - (n - 1 - d) : 0;
      const double x = from_edge * h, expected = dt * d0 * (x / L) * (x / L);
      EXPECT_NEAR(eta[std::size_t(i + 1)], expected, expected * std::ldexp(1.0, -23) + 1e-30)
          << "n " << n << " d " << d << " i " << i;
    }
  }
}

// A part of an x split (offsets on x_split_granule) sees the layer as the whole grid does: its launch boxes tile
// it once and its phi rows sit at the same x, shifted by its offset.
TEST(PmlGeometry, XPartsSeeTheWholeGridsLayer) {
  Subdomain whole = part_of(200, 60, 60, 0, 60);
  const PmlGeometry g = make_pml_geometry(whole, 27);
  for (auto [x0, nx] : {std::pair{0, 32}, std::pair{32, 64}, std::pair{64, 96}, std::pair{160, 40}}) {
    Subdomain part = whole;
    part.offset[0] = x0, part.size[0] = nx;
    const PmlGeometry p = make_pml_geometry(part, 27);
    SCOPED_TRACE(::testing::Message() << "x part " << x0 << " + " << nx);
    EXPECT_EQ(p.inner.x0, g.inner.x0 - x0);
    EXPECT_EQ(p.inner.x1, g.inner.x1 - x0);
    for (int i = 0; i < nx; ++i)
      for (int j = 0; j < 60; ++j)
        for (int k = 0; k < 60; ++k) {
          ASSERT_EQ(p.is_inner(i, j, k), g.is_inner(i + x0, j, k));
          if (!p.is_inner(i, j, k)) {
            ASSERT_EQ(p.slab_of(i, j, k), g.slab_of(i + x0, j, k));
          }
          ASSERT_EQ(p.launch_slab(i / phi_alignment * phi_alignment, j, k),
                    g.launch_slab((i + x0) / phi_alignment * phi_alignment, j, k));
        }
  }
}

TEST(PmlGeometry, RefusesAnInnerRegionNarrowerThanAVector) {
  EXPECT_THROW(make_pml_geometry(part_of(12, 13, 20, 0, 20), 5), seis::InvalidArgument);
  EXPECT_NO_THROW(make_pml_geometry(part_of(18, 13, 20, 0, 20), 5));
}

}  // namespace

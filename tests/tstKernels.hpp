// Test body compiled once per backend (TEST_EXECSPACE): every registered kernel variant against the
// double-precision reference on fresh random inputs with poisoned outputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "seis/core/compat.hpp"
#include "seis/core/memory_ops.hpp"
#include "seis/kernels/registry.hpp"
#include "seis/kernels/team_launch.hpp"
#include "test_fields.hpp"

namespace {

using Exec = TEST_EXECSPACE;
using Memory = Exec::memory_space;

struct GridCase {
  int nx, ny, nz;
};

// 1x1x1 and 7x5x3 are smaller than any tile or vector; 65x33x17 crosses tile edges; 37x29x11 is a multiple of no
// tile or vector width.
const GridCase grid_cases[] = {{1, 1, 1}, {7, 5, 3}, {65, 33, 17}, {37, 29, 11}};
// Every radius a variant supports.
const int radii[] = {1, 2, 3, 4, 5, 6, 7, 8};

void check_variant(const seis::KernelVariant<Exec>& variant, int radius, const GridCase& grid,
                   const seis::LaunchOptions& options, std::mt19937& rng) {
  const auto layout = seis::make_layout(grid.nx, grid.ny, grid.nz, radius);
  const auto coefficients = seis::make_coefficients(radius, 1.0, 0.8, 1.25);
  const auto host_in = seis::test::random_field(layout, rng);
  seis::Field<Kokkos::HostSpace> host_out("host out", layout);
  seis::test::poison(host_out);

  seis::Field<Memory> in("in", layout), out("out", layout);
  seis::deep_copy(in, host_in);
  seis::deep_copy(out, host_out);
  seis::apply(variant, Exec(), in, out, coefficients, options);
  Kokkos::fence();
  seis::deep_copy(host_out, out);

  const auto expected = seis::reference_star_stencil(host_in, coefficients, variant.op);
  std::ostringstream what;
  what << variant.name << " R=" << radius << " " << grid.nx << "x" << grid.ny << "x" << grid.nz
       << " VEC=" << options.vector_width << " nw=" << options.window << " tile=" << options.tile_x << "x"
       << options.tile_y << " stages=" << options.stages << " nt=" << options.nontemporal;
  seis::test::expect_matches_reference(host_out, expected, radius, what.str());
}

// Every VEC with streaming stores on and off at the default tile; then windows that do not divide nz = 11 or 17
// and, where a team can hold them (GPUs), tiles that divide no grid size; ring kernels with 2 and 8 planes in
// flight (the most copy_async_wait allows), the ring deeper than some windows.
std::vector<seis::LaunchOptions> option_sets(const seis::KernelVariant<Exec>& variant, int radius) {
  std::vector<seis::LaunchOptions> sets;
  for (int vec : variant.vector_widths)
    for (bool nontemporal : {false, true}) {
      seis::LaunchOptions o;
      o.vector_width = vec;
      o.nontemporal = nontemporal;
      sets.push_back(o);
    }
  seis::LaunchOptions window;
  window.window = 3;
  sets.push_back(window);
  if (variant.ring)
    for (int in_flight : {2, seis::copy_async_max_pending + 1}) {
      seis::LaunchOptions ring;
      ring.stages = radius + 1 + in_flight;
      ring.window = 5;
      sets.push_back(ring);
    }
  if (seis::is_gpu_space<Exec>()) {
    for (auto [tx, ty, nw] : {std::array<int, 3>{5, 3, 4}, std::array<int, 3>{7, 2, 1}, std::array<int, 3>{3, 9, 5}}) {
      seis::LaunchOptions tile;
      tile.tile_x = tx;
      tile.tile_y = ty;
      tile.window = nw;
      tile.nontemporal = true;
      sets.push_back(tile);
    }
  }
  return sets;
}

TEST(TEST_CATEGORY, EveryKernelMatchesReference) {
  std::mt19937 rng(seis::test::test_seed());
  const auto& registry = seis::kernel_registry<Exec>();
  ASSERT_FALSE(registry.empty());
  for (const auto& variant : registry) {
    for (int radius : radii) {
      if (radius < variant.min_radius || radius > variant.max_radius) continue;
      for (const auto& grid : grid_cases)
        for (const auto& options : option_sets(variant, radius)) check_variant(variant, radius, grid, options, rng);
    }
  }
}

// An impulse isolates every tap: a missing, misplaced or mis-weighted neighbour shows even where random inputs'
// rounding would hide it (the outermost R = 8 weight is 2.4e-6 of the centre one).
TEST(TEST_CATEGORY, EveryKernelHasTheExactImpulseResponse) {
  std::mt19937 rng(seis::test::test_seed() + 1);
  for (const auto& variant : seis::kernel_registry<Exec>()) {
    for (int radius : radii) {
      if (radius < variant.min_radius || radius > variant.max_radius) continue;
      const auto layout = seis::make_layout(37, 29, 19, radius);
      const auto coefficients = seis::make_coefficients(radius, 1.0, 0.8, 1.25);
      seis::Field<Kokkos::HostSpace> host_in("impulse", layout), host_out("host out", layout);
      Kokkos::deep_copy(host_in.span(), 0.0f);
      std::uniform_int_distribution<int> x(0, layout.nx - 1), y(0, layout.ny - 1), z(0, layout.nz - 1);
      host_in.data()[layout.offset(x(rng), y(rng), z(rng))] = 1.0f;
      seis::test::poison(host_out);
      seis::Field<Memory> in("in", layout), out("out", layout);
      seis::deep_copy(in, host_in);
      seis::deep_copy(out, host_out);
      seis::apply(variant, Exec(), in, out, coefficients, {});
      Kokkos::fence();
      seis::deep_copy(host_out, out);
      const auto expected = seis::reference_star_stencil(host_in, coefficients, variant.op);
      seis::test::expect_matches_reference(host_out, expected, radius,
                                           variant.name + " impulse R=" + std::to_string(radius));
    }
  }
}

// The assembled-matrix spmv is a second, independent oracle: every Laplacian variant agrees with it within the
// float32 tolerance of two independent roundings.
TEST(TEST_CATEGORY, EveryLaplacianKernelAgreesWithSpmvOracle) {
  std::mt19937 rng(seis::test::test_seed() + 2);
  const auto& oracle = seis::find_kernel<Exec>("spmv");
  for (int radius : radii) {
    const auto layout = seis::make_layout(37, 29, 11, radius);
    const auto coefficients = seis::make_coefficients(radius, 1.0, 0.8, 1.25);
    const auto host_in = seis::test::random_field(layout, rng);
    const auto expected = seis::reference_star_stencil(host_in, coefficients, seis::Operator::laplacian);
    seis::Field<Memory> in("in", layout), spmv_out("spmv out", layout), out("out", layout);
    seis::deep_copy(in, host_in);
    seis::apply(oracle, Exec(), in, spmv_out, coefficients);
    const auto spmv_result = seis::to_host(spmv_out);
    for (const auto& variant : seis::kernel_registry<Exec>()) {
      if (variant.op != seis::Operator::laplacian || radius < variant.min_radius || radius > variant.max_radius)
        continue;
      seis::apply(variant, Exec(), in, out, coefficients);
      const auto result = seis::to_host(out);
      const double factor = 2.0 * seis::float32_tolerance_factor(radius);
      std::size_t disagreements = 0;
      for (int k = 0; k < layout.nz; ++k)
        for (int j = 0; j < layout.ny; ++j)
          for (int i = 0; i < layout.nx; ++i) {
            const auto p = layout.offset(i, j, k);
            if (!(std::abs(result.data()[p] - spmv_result.data()[p]) <= factor * expected.scale(i, j, k)))
              ++disagreements;
          }
      EXPECT_EQ(disagreements, 0u) << variant.name << " R=" << radius << " disagrees with spmv (seed "
                                   << seis::test::test_seed() << ")";
    }
  }
}

// u = 1e-4 (k - nz / 2) on every float of the field, halo and padding included. (Device lambdas may not live in a
// gtest body: nvcc refuses extended lambdas in private member functions.)
void fill_linear_in_z(const seis::Field<Memory>& field) {
  float* u = field.data();
  const auto plane = field.layout().plane;
  const int halo = field.layout().halo, middle = field.layout().nz / 2;
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<Exec, Kokkos::IndexType<seis::index_t>>(0, seis::index_t(field.layout().size)),
      KOKKOS_LAMBDA(const seis::index_t n) { u[n] = 1e-4f * float(int(n / plane) - halo - middle); });
}

// The largest |value| over the interior; a NaN (a point never written) counts as 1e30.
float worst_interior_magnitude(const seis::Field<Memory>& field) {
  const float* result = field.data();
  const seis::FieldLayout L = field.layout();
  float worst = 0;
  Kokkos::parallel_reduce(
      "worst", Kokkos::RangePolicy<Exec>(0, L.nz),
      KOKKOS_LAMBDA(const int k, float& m) {
        for (int j = 0; j < L.ny; ++j)
          for (int i = 0; i < L.nx; ++i) {
            const float r = result[L.offset(i, j, k)];
            const float e = r == r ? (r < 0 ? -r : r) : 1e30f;
            m = e > m ? e : m;
          }
      },
      Kokkos::Max<float>(worst));
  return worst;
}

// A field of more than 2^31 floats (64-bit offsets): u = 1e-4 (k - nz / 2), linear in z everywhere halo included,
// so every operator is zero up to float32 rounding (|u| <= 12, sum |w| < 6: below 1e-4), while a wrapped or
// truncated plane offset reads another plane (an error of 1e-4 per plane away, or a fault). 17 GB: GPUs only, whose
// offsets are the ones at risk; host kernels share the offset code and the layout tests cover it.
TEST(TEST_CATEGORY, EveryKernelAddressesFieldsBeyondTwoToThe31Floats) {
  if (!seis::is_gpu_space<Exec>()) GTEST_SKIP() << "two 8.6 GB fields: run on GPU backends only";
  const int side = 64;
  const auto probe = seis::make_layout(side, side, 1, seis::max_radius);
  const int nz = static_cast<int>((std::size_t(1) << 31) / std::size_t(probe.plane)) + 64;
  const auto layout = seis::make_layout(side, side, nz, seis::max_radius);
  ASSERT_GT(layout.size, std::size_t(1) << 31);
  const std::size_t needed = 2 * layout.size * sizeof(float) + (std::size_t(1) << 30);
  if (seis::compat::available_memory_bytes() < needed)
    GTEST_SKIP() << "needs " << needed << " bytes, " << seis::compat::available_memory_bytes() << " free";
  seis::Field<Memory> in("in", layout), out("out", layout);
  fill_linear_in_z(in);
  for (const auto& variant : seis::kernel_registry<Exec>()) {
    const int radius = std::min(4, variant.max_radius);
    const auto coefficients = seis::make_coefficients(radius, 1.0, 1.0, 1.0);
    if (variant.name == "spmv" || variant.walks_y) {
      EXPECT_THROW(seis::apply(variant, Exec(), in, out, coefficients), seis::InvalidArgument) << variant.name;
      continue;
    }
    Kokkos::deep_copy(out.span(), std::nanf(""));
    seis::apply(variant, Exec(), in, out, coefficients);
    const float worst = worst_interior_magnitude(out);
    EXPECT_LT(worst, 1e-3f) << variant.name << " R=" << radius << " on " << layout.size << " floats";
  }
}

}  // namespace

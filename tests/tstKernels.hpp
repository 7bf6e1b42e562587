// Test body compiled once per backend (TEST_EXECSPACE): every registered kernel variant against the
// double-precision reference on fresh random inputs with poisoned outputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <string>

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

// The field of EveryKernelAddressesFieldsBeyondTwoToThe31Floats: u(i, j, k) = a[(i + k) mod 7] + b[(j + 2k) mod 5],
// a and b a cosine's period sampled 7 and 5 times, on every float of the field (halo and padding included). Every
// second difference of u is O(1) and its phase moves with the plane, so a kernel that writes zeros, or reads from a
// wrong plane (a wrapped or truncated 64-bit offset) or row, is off by O(1). `d2x[p]` is the exact (double) second
// difference along x of the float samples at phase p = (i + k) mod 7, `d2y[q]` along y at q = (j + 2k) mod 5, and
// along z the two add up: `d2x_z[p] + d2z[q]` (u moves 1 sample of a and 2 of b per plane).
struct PlanePattern {
  float a[7], b[5];
  double d2x[7], d2x_z[7], d2y[5], d2z[5];
  double bound;  // what float32 evaluation may add, below

  PlanePattern(const seis::StencilCoefficients& c, seis::Operator op) {
    const double pi = std::acos(-1.0);
    for (int p = 0; p < 7; ++p) a[p] = float(std::cos(2 * pi * p / 7));
    for (int q = 0; q < 5; ++q) b[q] = float(std::cos(2 * pi * q / 5));
    const auto second = [&](const float* v, int period, const std::array<double, seis::max_radius + 1>& w, int stride,
                            int at) {
      double sum = w[0] * v[at];
      for (int m = 1; m <= c.radius; ++m)
        sum += w[std::size_t(m)] *
               (double(v[(at + m * stride) % period]) + double(v[((at - m * stride) % period + period) % period]));
      return sum;
    };
    for (int p = 0; p < 7; ++p) d2x[p] = second(a, 7, c.x, 1, p), d2x_z[p] = second(a, 7, c.z, 1, p);
    for (int q = 0; q < 5; ++q) d2y[q] = second(b, 5, c.y, 1, q), d2z[q] = second(b, 5, c.z, 2, q);
    // Each output sums at most 6R + 3 products w u (|u| <= 2), each input already rounded once: the standard bound
    // of a float sum, (6R + 3) 2^-24 sum |w| |u|, with the weights' own rounding counted in the 3.
    double weights = 0;
    const std::pair<bool, const std::array<double, seis::max_radius + 1>*> axes[] = {
        {uses_x(op), &c.x}, {uses_y(op), &c.y}, {uses_z(op), &c.z}};
    for (const auto& [used, w] : axes)
      for (int m = 0; m <= c.radius && used; ++m) weights += (m == 0 ? 1 : 2) * std::abs((*w)[std::size_t(m)]);
    bound = (6 * c.radius + 3) * std::ldexp(1.0, -24) * weights * 2;
  }
};

void fill_pattern(const seis::Field<Memory>& field, const PlanePattern& pattern) {
  float* u = field.data();
  const seis::FieldLayout L = field.layout();
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<Exec>(0, L.nz + 2 * L.halo), KOKKOS_LAMBDA(const int plane) {
        // Offsets keep the remainders' arguments positive: i >= -lead, j >= -halo, k >= -halo.
        const int k = plane - L.halo;
        float* p = u + seis::index_t(plane) * L.plane;
        for (int row = 0; row < L.ldy; ++row) {
          const int j = row - L.halo;
          const float b = pattern.b[(j + 2 * k + 5 * 64) % 5];
          for (int x = 0, phase = (k - L.lead + 7 * 64) % 7; x < L.ldx; ++x, phase = phase == 6 ? 0 : phase + 1)
            p[row * L.ldx + x] = pattern.a[phase] + b;
        }
      });
}

// The largest |out - expected| over the interior for operator `op`; a NaN (a point never written) counts as 1e30.
double worst_pattern_error(const seis::Field<Memory>& field, const PlanePattern& pattern, seis::Operator op) {
  const float* result = field.data();
  const seis::FieldLayout L = field.layout();
  const bool x = uses_x(op), y = uses_y(op), z = uses_z(op);
  double worst = 0;
  Kokkos::parallel_reduce(
      "worst", Kokkos::RangePolicy<Exec>(0, L.nz),
      KOKKOS_LAMBDA(const int k, double& m) {
        for (int j = 0; j < L.ny; ++j)
          for (int i = 0; i < L.nx; ++i) {
            const int p = (i + k) % 7, q = (j + 2 * k) % 5;
            const double expected =
                (x ? pattern.d2x[p] : 0.0) + (y ? pattern.d2y[q] : 0.0) + (z ? pattern.d2x_z[p] + pattern.d2z[q] : 0.0);
            const double r = result[L.offset(i, j, k)];
            const double e = r == r ? (r < expected ? expected - r : r - expected) : 1e30;
            m = e > m ? e : m;
          }
      },
      Kokkos::Max<double>(worst));
  return worst;
}

// Every interior point of `field` a NaN, so that a point a kernel never writes shows (the rest is left untouched).
void poison_interior(const seis::Field<Memory>& field) {
  float* u = field.data();
  const seis::FieldLayout L = field.layout();
  const float nan = std::nanf("");
  Kokkos::parallel_for(
      "poison", Kokkos::RangePolicy<Exec>(0, L.nz), KOKKOS_LAMBDA(const int k) {
        for (int j = 0; j < L.ny; ++j)
          for (int i = 0; i < L.nx; ++i) u[L.offset(i, j, k)] = nan;
      });
}

// A field of more than 2^31 floats (64-bit offsets), filled with PlanePattern, through the kernels. Planes of 16 x
// 16 points (a sixteenth of their padded plane) keep the work to 1.3e8 points per kernel, so that host backends run
// it too (two 8.6 GB fields: where memory allows, which includes CI's 24 GB host; 3 x slower under the sanitizers,
// the debug preset leaves it to the openmp preset).
TEST(TEST_CATEGORY, EveryKernelAddressesFieldsBeyondTwoToThe31Floats) {
  const int side = 16;
  const auto probe = seis::make_layout(side, side, 1, seis::max_radius);
  const int nz = static_cast<int>((std::size_t(1) << 31) / std::size_t(probe.plane)) + 64;
  const auto layout = seis::make_layout(side, side, nz, seis::max_radius);
  ASSERT_GT(layout.size, std::size_t(1) << 31);
  if (std::string(Exec::name()) == "Serial") GTEST_SKIP() << "the OpenMP backend runs the host kernels' offsets";
  const std::size_t needed = 2 * layout.size * sizeof(float) + (std::size_t(1) << 30);
  if (seis::compat::available_memory_bytes() < needed)
    GTEST_SKIP() << "skipped for want of memory: two fields of more than 2^31 floats need " << needed / 1e9
                 << " GB, this machine has " << seis::compat::available_memory_bytes() / 1e9
                 << " GB available (MemAvailable or the control group's limit); the 64-bit offsets go untested here";
  seis::Field<Memory> in("in", layout), out("out", layout);
  fill_pattern(in, PlanePattern(seis::make_coefficients(1), seis::Operator::laplacian));
  std::set<std::string> families;
  for (const auto& variant : seis::kernel_registry<Exec>()) {
    // Host backends: the first variant of each family (its variants share their offset code), a minute on CI's
    // two cores; GPUs, whose 32-bit launch indices are at risk too: every variant.
    if (!families.insert(variant.family).second && !seis::is_gpu_space<Exec>()) continue;
    const int radius = std::min(4, variant.max_radius);
    const auto coefficients = seis::make_coefficients(radius, 1.0, 1.0, 1.0);
    // Rows walked through transposed_yz (GPU only) and the library's sparse matrix have 32-bit offsets.
    if (variant.name == "spmv" || (variant.walks_y && seis::is_gpu_space<Exec>())) {
      EXPECT_THROW(seis::apply(variant, Exec(), in, out, coefficients), seis::InvalidArgument) << variant.name;
      continue;
    }
    poison_interior(out);
    const PlanePattern pattern(coefficients, variant.op);
    seis::apply(variant, Exec(), in, out, coefficients);
    const double worst = worst_pattern_error(out, pattern, variant.op);
    EXPECT_LE(worst, pattern.bound) << variant.name << " R=" << radius << " on " << layout.size << " floats";
  }
}

}  // namespace

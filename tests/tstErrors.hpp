// Test body compiled once per backend: bad input gives seis::InvalidArgument naming the value and the limit.
#include <gtest/gtest.h>

#include "expect_error.hpp"
#include "seis/core/error.hpp"
#include "seis/kernels/registry.hpp"
#include "seis/kernels/team_launch.hpp"
#include "test_fields.hpp"

namespace {

using Exec = TEST_EXECSPACE;
using Memory = Exec::memory_space;

using seis::test::expect_error_mentioning;

TEST(TEST_CATEGORY, UnknownKernelNameIsRefused) {
  expect_error_mentioning([] { seis::find_kernel<Exec>("no-such-kernel"); }, "no-such-kernel");
}

TEST(TEST_CATEGORY, EveryKernelRefusesBadShapesRadiiAndOptions) {
  for (const auto& variant : seis::kernel_registry<Exec>()) {
    SCOPED_TRACE(variant.name);
    const int R = variant.min_radius;
    const auto coefficients = seis::make_coefficients(R);
    const auto layout = seis::make_layout(8, 8, 8, R);
    seis::Field<Memory> in("in", layout), out("out", layout);
    seis::Field<Memory> other("other", seis::make_layout(8, 8, 9, R));

    expect_error_mentioning([&] { seis::apply(variant, Exec(), in, other, coefficients); }, "different shapes");
    expect_error_mentioning([&] { seis::apply(variant, Exec(), in, in, coefficients); }, "different fields");
    if (R + 1 <= variant.max_radius) {
      expect_error_mentioning([&] { seis::apply(variant, Exec(), in, out, seis::make_coefficients(R + 1)); },
                              "halo " + std::to_string(R) + " is smaller than the radius R = " + std::to_string(R + 1));
    } else {
      seis::Field<Memory> wide_in("wide in", seis::make_layout(8, 8, 8, R + 1));
      seis::Field<Memory> wide_out("wide out", seis::make_layout(8, 8, 8, R + 1));
      expect_error_mentioning([&] { seis::apply(variant, Exec(), wide_in, wide_out, seis::make_coefficients(R + 1)); },
                              "not R = " + std::to_string(R + 1));
    }
    seis::StencilCoefficients bad_radius = coefficients;
    bad_radius.radius = 9;
    expect_error_mentioning([&] { seis::apply(variant, Exec(), in, out, bad_radius); }, "R = 9");
    seis::LaunchOptions bad_vec;
    bad_vec.vector_width = 3;
    expect_error_mentioning([&] { seis::apply(variant, Exec(), in, out, coefficients, bad_vec); }, "VEC = 3");
    seis::LaunchOptions bad_window;
    bad_window.window = -1;
    expect_error_mentioning([&] { seis::apply(variant, Exec(), in, out, coefficients, bad_window); }, "nw = -1");
  }
}

// On GPUs a tile larger than a team may hold is refused with both numbers, before any launch. Host backends run
// the row engine, whose tile is only a block of rows: there the same tile is valid, and the kernel run with it
// writes bitwise what it writes with its default tile (a block of rows changes no point's arithmetic).
TEST(TEST_CATEGORY, OversizedTilesAreRefused) {
  const auto layout = seis::make_layout(8, 8, 8, 4);
  seis::LaunchOptions huge;
  huge.tile_x = 4096;
  huge.tile_y = 4096;
  const auto& fused = seis::find_kernel<Exec>("xyz_fused");
  const auto check = [&] { seis::validate(fused, layout, 4, huge); };
  if (seis::is_gpu_space<Exec>()) {
    expect_error_mentioning(check, "threads per team");
  } else {
    std::mt19937 rng(seis::test::test_seed());
    seis::Field<Memory> in("in", layout), by_default("default tile", layout), by_huge("huge tile", layout);
    seis::deep_copy(in, seis::test::random_field(layout, rng));
    const auto coefficients = seis::make_coefficients(4);
    seis::apply(fused, Exec(), in, by_default, coefficients);
    seis::apply(fused, Exec(), in, by_huge, coefficients, huge);
    Exec().fence();
    const auto a = seis::to_host(by_default), b = seis::to_host(by_huge);
    std::size_t differ = 0;
    for (int k = 0; k < 8; ++k)
      for (int j = 0; j < 8; ++j)
        for (int i = 0; i < 8; ++i) differ += a.data()[layout.offset(i, j, k)] != b.data()[layout.offset(i, j, k)];
    EXPECT_EQ(differ, 0u) << "of 512 points differ between the default and a 4096x4096 tile";
  }
  huge.tile_y = 0;
  huge.window = -1;
  expect_error_mentioning(check, "must be >= 0");
}

}  // namespace

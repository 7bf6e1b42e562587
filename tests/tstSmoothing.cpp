// The gradient's smoothing (seis/inversion/smoothing.hpp): S^T is S's transpose, S keeps constants, and z within the
// spread bounds keeps x0 + S z within its own bounds; the refusal.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "expect_error.hpp"
#include "operator_checks.hpp"
#include "seis/inversion/smoothing.hpp"

using seis::inversion::Smoothing;

// <S a, b> = <a, S^T b> in double (rounding ~1e-15 of the sums), on a grid whose axes are shorter than the Gaussian's
// reach and longer; a constant comes back a constant (each row sums to 1).
TEST(Smoothing, TransposeIsTheAdjointAndConstantsStay) {
  std::mt19937 rng(11);
  for (const double length : {15.0, 40.0}) {
    const Smoothing s({13, 9, 7}, 10.0, length);
    const std::size_t n = 13 * 9 * 7;
    const auto a = seis::test::gaussian<double>(n, rng), b = seis::test::gaussian<double>(n, rng);
    const auto sa = s.apply(a), tb = s.transpose(b);
    double left = 0, right = 0, scale = 0;
    for (std::size_t p = 0; p < n; ++p) left += sa[p] * b[p], right += a[p] * tb[p], scale += std::abs(sa[p] * b[p]);
    EXPECT_NEAR(left, right, 1e-13 * scale) << length << " m";
    for (double v : s.apply(std::vector<double>(n, 2.5))) ASSERT_NEAR(v, 2.5, 1e-14);
  }
}

// x0 random in [0, 1], z at random within the spread bounds of -x0 and 1 - x0, and at either of them: x0 + S z stays
// within [0, 1] (to rounding); the bounds are those of the points within reach, so they hold 0 between them.
TEST(Smoothing, SpreadBoundsKeepTheSmoothedModelWithinItsOwn) {
  std::mt19937 rng(12);
  const Smoothing s({11, 10, 9}, 10.0, 20.0);
  const std::size_t n = 11 * 10 * 9;
  std::uniform_real_distribution<double> uniform(0, 1);
  std::vector<double> x0(n), below(n), above(n);
  for (double& x : x0) x = uniform(rng);
  for (std::size_t p = 0; p < n; ++p) below[p] = -x0[p], above[p] = 1 - x0[p];
  const auto lower = s.spread_lower(below), upper = s.spread_upper(above);
  for (std::size_t p = 0; p < n; ++p) {
    ASSERT_LE(lower[p], 0.0);
    ASSERT_GE(upper[p], 0.0);
  }
  for (int trial = 0; trial < 3; ++trial) {
    std::vector<double> z(n);
    for (std::size_t p = 0; p < n; ++p)
      z[p] = trial == 0 ? lower[p] : trial == 1 ? upper[p] : lower[p] + uniform(rng) * (upper[p] - lower[p]);
    const auto sz = s.apply(z);
    for (std::size_t p = 0; p < n; ++p) {
      ASSERT_GE(x0[p] + sz[p], -1e-12) << "trial " << trial << ", point " << p;
      ASSERT_LE(x0[p] + sz[p], 1 + 1e-12) << "trial " << trial << ", point " << p;
    }
  }
}

TEST(Smoothing, RefusesALengthThatIsNotPositive) {
  seis::test::expect_error_mentioning(
      [] {
        Smoothing({4, 4, 4}, 10.0, 0.0);
      },
      "the gradient's smoothing length 0 m must be positive");
}

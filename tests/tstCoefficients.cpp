#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "seis/core/coefficients.hpp"
#include "seis/core/error.hpp"

namespace {

// What a kernel run through the y-z transposed view computes: the operator and the weights with y and z exchanged.
TEST(Coefficients, SwapYZExchangesTheYAndZAxes) {
  using seis::Operator;
  static_assert(seis::swap_yz(Operator::d2y) == Operator::d2z && seis::swap_yz(Operator::d2z) == Operator::d2y);
  static_assert(seis::swap_yz(Operator::d2xy) == Operator::d2xz && seis::swap_yz(Operator::d2xz) == Operator::d2xy);
  static_assert(seis::swap_yz(Operator::d2x) == Operator::d2x &&
                seis::swap_yz(Operator::laplacian) == Operator::laplacian);
  const auto c = seis::make_coefficients(4, 1.0, 0.8, 1.25);
  const auto s = seis::swap_yz(c);
  for (int m = 0; m <= 4; ++m) {
    EXPECT_EQ(s.x[m], c.x[m]);
    EXPECT_EQ(s.y[m], c.z[m]);
    EXPECT_EQ(s.z[m], c.y[m]);
  }
  EXPECT_NE(c.y[1], c.z[1]);
}

TEST(Coefficients, SecondOrderIsOneMinusTwoOne) {
  const auto w = seis::second_derivative_weights(1);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NEAR(w[0], -2.0, 1e-15);
  EXPECT_NEAR(w[1], 1.0, 1e-15);
}

TEST(Coefficients, EighthOrderMatchesExactFractions) {
  const auto w = seis::second_derivative_weights(4);
  const double exact[] = {-205.0 / 72.0, 8.0 / 5.0, -1.0 / 5.0, 8.0 / 315.0, -1.0 / 560.0};
  ASSERT_EQ(w.size(), 5u);
  for (int m = 0; m <= 4; ++m) EXPECT_NEAR(w[m], exact[m], 1e-14) << "offset " << m;
}

// Closed form of the central second-derivative weights (e.g. Fornberg 1988, table 1):
// w_m = 2 (-1)^(m+1) (R!)^2 / (m^2 (R-m)! (R+m)!), w_0 = -2 sum_{m>=1} w_m.
TEST(Coefficients, EveryRadiusMatchesClosedForm) {
  for (int R = 1; R <= seis::max_radius; ++R) {
    const auto w = seis::second_derivative_weights(R);
    double center = 0.0;
    for (int m = 1; m <= R; ++m) {
      const double exact = 2.0 * ((m + 1) % 2 == 0 ? 1.0 : -1.0) *
                           std::exp(2.0 * std::lgamma(R + 1.0) - std::lgamma(R - m + 1.0) - std::lgamma(R + m + 1.0)) /
                           (m * m);
      EXPECT_NEAR(w[m], exact, 1e-12 * std::abs(exact) + 1e-15) << "R = " << R << ", offset " << m;
      center -= 2.0 * exact;
    }
    EXPECT_NEAR(w[0], center, 1e-12) << "R = " << R;
  }
}

TEST(Coefficients, WeightsSumToZero) {
  for (int R = 1; R <= seis::max_radius; ++R) {
    const auto w = seis::second_derivative_weights(R);
    double sum = w[0];
    for (int m = 1; m <= R; ++m) sum += 2.0 * w[m];
    EXPECT_NEAR(sum, 0.0, 1e-13) << "R = " << R;
  }
}

TEST(Coefficients, ScaledByInverseSpacingSquaredPerAxis) {
  const auto c = seis::make_coefficients(4, 2.0, 0.5, 10.0);
  const auto w = seis::second_derivative_weights(4);
  for (int m = 0; m <= 4; ++m) {
    EXPECT_DOUBLE_EQ(c.x[m], w[m] / 4.0);
    EXPECT_DOUBLE_EQ(c.y[m], w[m] / 0.25);
    EXPECT_DOUBLE_EQ(c.z[m], w[m] / 100.0);
  }
}

// A first derivative's weights c (c[m - 1] weighing u(x_m) - u(-x_m), x_m = m - shift) differentiate x^p exactly for
// odd p up to 2R - 1 (the even powers cancel by symmetry): sum_m 2 c_m x_m^p is 1 for p = 1 and 0 above.
void expect_exact_to_order_2r(const std::vector<double>& c, double shift, int radius) {
  ASSERT_EQ(int(c.size()), radius);
  for (int p = 1; p <= 2 * radius - 1; p += 2) {
    double sum = 0;
    for (int m = 1; m <= radius; ++m) sum += c[std::size_t(m - 1)] * 2 * std::pow(m - shift, p);
    EXPECT_NEAR(sum, p == 1 ? 1.0 : 0.0, 1e-9 * std::pow(radius, p)) << "R = " << radius << ", x^" << p;
  }
}

// The staggered first derivative (x_m = m - 1/2): 1 at R = 1, 9/8 and -1/24 at R = 2 (the classic fourth-order pair);
// the centred one (x_m = m): 1/2 at R = 1, 2/3 and -1/12 at R = 2.
TEST(Coefficients, FirstDerivativesAreExactToOrder2R) {
  EXPECT_DOUBLE_EQ(seis::staggered_first_derivative_weights(1)[0], 1.0);
  EXPECT_DOUBLE_EQ(seis::centred_first_derivative_weights(1)[0], 0.5);
  const auto s2 = seis::staggered_first_derivative_weights(2), c2 = seis::centred_first_derivative_weights(2);
  EXPECT_NEAR(s2[0], 9.0 / 8, 1e-15);
  EXPECT_NEAR(s2[1], -1.0 / 24, 1e-15);
  EXPECT_NEAR(c2[0], 2.0 / 3, 1e-15);
  EXPECT_NEAR(c2[1], -1.0 / 12, 1e-15);
  for (int radius = 1; radius <= seis::max_radius; ++radius) {
    expect_exact_to_order_2r(seis::staggered_first_derivative_weights(radius), 0.5, radius);
    expect_exact_to_order_2r(seis::centred_first_derivative_weights(radius), 0.0, radius);
  }
  EXPECT_THROW(seis::staggered_first_derivative_weights(0), seis::InvalidArgument);
  EXPECT_THROW(seis::centred_first_derivative_weights(9), seis::InvalidArgument);
}

// The anisotropic step's stability (wave/tti.hpp) rests on -L - D^T D >= 0 per axis: the centred first derivative's
// symbol squared, d(k)^2 = (sum_m 2 c_m sin(m k))^2, never above the second derivative's, -(w_0 + sum_m 2 w_m cos(m
// k)), over 0 < k <= pi, at each radius (to the rounding of two O(k^2) sums, 1e-14). A first derivative one radius
// wider than the Laplacian's breaks it (by 0.02 at R = 1, 4e-7 at R = 4).
TEST(Coefficients, CentredFirstDerivativeSquaredStaysUnderTheSecondDerivative) {
  const double pi = std::acos(-1.0);
  for (int radius = 1; radius <= seis::max_radius; ++radius) {
    const auto w = seis::second_derivative_weights(radius);
    const auto c = seis::centred_first_derivative_weights(radius);
    for (int n = 1; n <= 4000; ++n) {
      const double k = pi * n / 4000;
      double second = -w[0], first = 0;
      for (int m = 1; m <= radius; ++m) {
        second -= 2 * w[std::size_t(m)] * std::cos(m * k);
        first += 2 * c[std::size_t(m - 1)] * std::sin(m * k);
      }
      ASSERT_LE(first * first, second + 1e-14) << "R = " << radius << ", k = " << k;
    }
  }
}

TEST(Coefficients, RejectsRadiusOutsideOneToEight) {
  for (int R : {0, -1, 9, 100}) {
    EXPECT_THROW(seis::second_derivative_weights(R), seis::InvalidArgument) << "R = " << R;
  }
  try {
    seis::make_coefficients(9);
    FAIL() << "R = 9 accepted";
  } catch (const seis::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("R = 9"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("[1, 8]"), std::string::npos) << e.what();
  }
}

TEST(Coefficients, RejectsNonPositiveSpacing) {
  EXPECT_THROW(seis::make_coefficients(2, 0.0, 1.0, 1.0), seis::InvalidArgument);
  EXPECT_THROW(seis::make_coefficients(2, 1.0, -1.0, 1.0), seis::InvalidArgument);
  EXPECT_THROW(seis::make_coefficients(2, 1.0, 1.0, std::nan("")), seis::InvalidArgument);
}

}  // namespace

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "seis/core/coefficients.hpp"
#include "seis/reference/star_stencil.hpp"

namespace {

double smooth(double x, double y, double z) {
  return std::sin(x + 0.3) * std::sin(2 * y + 0.4) * std::sin(3 * z + 0.3);
}

// Max error of the reference Laplacian of u = sin(x) sin(2y) sin(3z), exact -(1 + 4 + 9) u, on n points per axis
// with spacings (h, 1.5 h, 0.75 h) covering a fixed box, measured at every `stride`-th point so that grids of
// spacing h and h/2 are compared at the same physical points. Double samples keep rounding (1e-16 sum|w|/h^2) far
// below the truncation error even for R = 8.
double max_error(int R, double h, int n, int stride) {
  const double hx = h, hy = 1.5 * h, hz = 0.75 * h;
  const auto L = seis::make_layout(n, n, n, R);
  seis::Field<Kokkos::HostSpace, double> u("u", L);
  for (int k = -R; k < n + R; ++k)
    for (int j = -R; j < n + R; ++j)
      for (int i = -R; i < n + R; ++i) u.data()[L.offset(i, j, k)] = smooth(i * hx, j * hy, k * hz);
  const auto result =
      seis::reference_star_stencil(u, seis::make_coefficients(R, hx, hy, hz), seis::Operator::laplacian);
  double error = 0.0;
  for (int k = 0; k < n; k += stride)
    for (int j = 0; j < n; j += stride)
      for (int i = 0; i < n; i += stride)
        error = std::max(error, std::abs(result.at(i, j, k) + 14.0 * smooth(i * hx, j * hy, k * hz)));
  return error;
}

// The order proved exactly, without a grid: Taylor-expanding u(x + m h) about x, the weights' second difference is
// sum over q of M_q h^(2q - 2) u^(2q)(x) / (2q)!, with moments M_q = w_0 [q = 0] + 2 sum_m w_m m^(2q) (h = 1). It is
// u'' + O(h^2R) exactly when M_0 = 0, M_1 = 2 and M_2 .. M_R = 0; a nonzero M_(R+1) makes 2R the order, not more.
// Each moment is a sum of R + 1 terms: zero within (R + 1) 2^-53 sum |terms| (1e-12 of it, a margin of 10^2).
TEST(Convergence, WeightMomentsProveOrderTwoR) {
  for (int R = 1; R <= seis::max_radius; ++R) {
    const auto w = seis::make_coefficients(R).x;
    for (int q = 0; q <= R + 1; ++q) {
      double moment = q == 0 ? w[0] : 0.0, magnitude = std::abs(moment);
      for (int m = 1; m <= R; ++m) {
        const double term = 2.0 * w[std::size_t(m)] * std::pow(double(m), 2 * q);
        moment += term;
        magnitude += std::abs(term);
      }
      if (q <= R)
        EXPECT_NEAR(moment, q == 1 ? 2.0 : 0.0, 1e-12 * magnitude) << "R = " << R << ", moment " << q;
      else
        EXPECT_GT(std::abs(moment), 1e-6 * magnitude) << "R = " << R << ": order above 2R";
    }
  }
}

// The grid confirms it where double rounding allows: for R = 1..4 the observed order is 2R within 0.1 (1.999, 3.998,
// 5.947, 7.919). For R >= 5 rounding forces spacings where the next error term still shows, and the observed order
// approaches 2R from below (9.56, 11.43, 13.30, 15.17 for R = 5..8): what the grid proves there is an order above
// 2R - 1, which weights of order 2R - 2 would fail; the moments above prove 2R.
TEST(Convergence, ReferenceLaplacianConvergesAtOrderTwoR) {
  for (int R = 1; R <= seis::max_radius; ++R) {
    // Coarse enough that the fine grid's truncation error stays far above double rounding.
    const double h = R <= 2 ? 0.05 : (R <= 4 ? 0.2 : 0.4);
    const int n = 8;
    const double coarse = max_error(R, h, n, 1);
    const double fine = max_error(R, h / 2, 2 * n, 2);
    const double order = std::log2(coarse / fine);
    EXPECT_GE(order, 2.0 * R - 1.0) << "R = " << R << ", errors " << coarse << " -> " << fine;
    EXPECT_LE(order, 2.0 * R + 0.5) << "R = " << R << ", errors " << coarse << " -> " << fine;
  }
}

}  // namespace

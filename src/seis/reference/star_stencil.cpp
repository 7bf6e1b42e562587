#include "seis/reference/star_stencil.hpp"

#include <algorithm>
#include <cmath>

#include "seis/core/error.hpp"

namespace seis {

template <class Value>
ReferenceResult reference_star_stencil(const Field<Kokkos::HostSpace, Value>& input, const StencilCoefficients& c,
                                       Operator op) {
  const FieldLayout& L = input.layout();
  const int R = c.radius;
  require(R >= 1 && R <= max_radius, "stencil radius R = ", R, " must be in [1, ", max_radius, "]");
  require(L.halo >= R, "field halo ", L.halo, " is smaller than the stencil radius ", R);
  const bool use_x = uses_x(op), use_y = uses_y(op), use_z = uses_z(op);
  const double center = (use_x ? c.x[0] : 0.0) + (use_y ? c.y[0] : 0.0) + (use_z ? c.z[0] : 0.0);

  ReferenceResult result{L, std::vector<double>(L.interior_points()), std::vector<double>(L.interior_points())};
  const Value* u = input.data();
  for (int k = 0; k < L.nz; ++k) {
    for (int j = 0; j < L.ny; ++j) {
      for (int i = 0; i < L.nx; ++i) {
        const index_t p = L.offset(i, j, k);
        double sum = center * u[p];
        double magnitude = std::abs(sum);
        const auto add_axis = [&](bool used, const auto& weights, index_t stride) {
          if (!used) return;
          for (int m = 1; m <= R; ++m) {
            const double minus = weights[m] * static_cast<double>(u[p - m * stride]);
            const double plus = weights[m] * static_cast<double>(u[p + m * stride]);
            sum += minus + plus;
            magnitude += std::abs(minus) + std::abs(plus);
          }
        };
        add_axis(use_x, c.x, 1);
        add_axis(use_y, c.y, L.ldx);
        add_axis(use_z, c.z, L.plane);
        result.value[result.index(i, j, k)] = sum;
        result.magnitude[result.index(i, j, k)] = magnitude;
      }
    }
  }
  return result;
}

ErrorSummary compare_with_reference(const Field<Kokkos::HostSpace>& out, const ReferenceResult& expected, int radius) {
  const FieldLayout& L = out.layout();
  const double factor = float32_tolerance_factor(radius);
  ErrorSummary summary;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const double got = out.data()[L.offset(i, j, k)];
        const double error = std::abs(got - expected.at(i, j, k));
        const double tolerance = factor * expected.scale(i, j, k);
        const double ratio = std::isnan(error) ? HUGE_VAL : (error == 0.0 ? 0.0 : error / tolerance);
        if (!(error <= tolerance)) ++summary.failures;
        if (ratio > summary.ratio) {
          summary.ratio = ratio;
          summary.i = i, summary.j = j, summary.k = k;
          summary.got = got;
          summary.expected = expected.at(i, j, k);
        }
      }
  return summary;
}

template ReferenceResult reference_star_stencil(const Field<Kokkos::HostSpace, float>&, const StencilCoefficients&,
                                                Operator);
template ReferenceResult reference_star_stencil(const Field<Kokkos::HostSpace, double>&, const StencilCoefficients&,
                                                Operator);

}  // namespace seis

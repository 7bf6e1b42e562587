#pragma once
// The oracle: the 3D star stencil evaluated in double precision on the host.
#include <cfloat>
#include <vector>

#include "seis/core/coefficients.hpp"
#include "seis/core/field.hpp"

namespace seis {

struct ReferenceResult {
  FieldLayout layout;
  std::vector<double> value;      // op(u) at every interior point, x fastest
  std::vector<double> magnitude;  // sum over taps of |weight * u|: the scale of the float32 rounding error
  double at(int i, int j, int k) const { return value[index(i, j, k)]; }
  double scale(int i, int j, int k) const { return magnitude[index(i, j, k)]; }
  std::size_t index(int i, int j, int k) const { return (static_cast<std::size_t>(k) * layout.ny + j) * layout.nx + i; }
};

// A float32 evaluation of the stencil sums 6R+1 products; its rounding error is bounded by (6R+1) ulps of the sum
// of the products' magnitudes (ReferenceResult::magnitude). Twice that bound is the tolerance, point by point, of
// the tests and of seis-bench's verification.
inline double float32_tolerance_factor(int radius) { return 2.0 * (6 * radius + 1) * FLT_EPSILON; }

// Reads the interior and R halo cells of `input` (halo >= R) and applies `op` with the weights of `c`.
// Instantiated for float (the kernels' inputs) and double (convergence tests) fields.
template <class Value>
ReferenceResult reference_star_stencil(const Field<Kokkos::HostSpace, Value>& input, const StencilCoefficients& c,
                                       Operator op);

// The worst interior point of `out` against the reference: ratio = |out - reference| / tolerance (< 1 passes;
// infinite for a NaN, e.g. an unwritten point), where it is, and how many points fail.
struct ErrorSummary {
  double ratio = 0.0;
  int i = 0, j = 0, k = 0;
  double got = 0.0, expected = 0.0;
  std::size_t failures = 0;
};
ErrorSummary compare_with_reference(const Field<Kokkos::HostSpace>& out, const ReferenceResult& expected, int radius);

}  // namespace seis

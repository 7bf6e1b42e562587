#pragma once
// The oracle: the 3D star stencil evaluated in double precision on the host.
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
  std::size_t index(int i, int j, int k) const {
    return (static_cast<std::size_t>(k) * layout.ny + j) * layout.nx + i;
  }
};

// Reads the interior and R halo cells of `input` (halo >= R) and applies `op` with the weights of `c`.
// Instantiated for float (the kernels' inputs) and double (convergence tests) fields.
template <class Value>
ReferenceResult reference_star_stencil(const Field<Kokkos::HostSpace, Value>& input, const StencilCoefficients& c,
                                       Operator op);

}  // namespace seis

#pragma once
// The data misfit of one shot's traces and its derivative with respect to the modelled traces (the adjoint source
// that the adjoint modelling takes back into the model). Traces are rows of `samples` values, sample interval dt;
// a weight a sample (an offset or time window, a mute, a trace's weight: zero where a sample does not count, a
// taper between) multiplies both gathers before they are compared. Host-only.
//   l2:         J = dt / 2 sum_(trace, t) (w (d - o))^2; dJ/dd = dt w^2 (d - o).
//   normalised: J = 1/2 sum_trace |w d / |w d| - w o / |w o||^2, each trace's amplitude divided out (a source's
//               strength, the receivers' coupling, the amplitudes an acoustic model gets wrong); a trace that
//               modelling leaves zero counts |o|^2 / 2 with no derivative, one observed zero compares to zero.
//               dJ/dd = w / |w d| (d^ (d^ . o^) - o^), d^ = w d / |w d|, o^ likewise.
#include <cstddef>
#include <string>
#include <vector>

namespace seis::inversion {

enum class MisfitKind { l2, normalised };

// "l2" or "normalised"; anything else is refused naming the choices.
MisfitKind misfit_kind(const std::string& name);
const char* misfit_name(MisfitKind kind);

struct Traces {
  int traces = 0, samples = 0;
  double dt = 0;  // s
};

// J of modelled against observed (traces x samples each), its derivative into adjoint_source (the same shape;
// nullptr: not wanted). weights: one a sample, or empty for ones. Sums in double whatever T is.
template <class T>
double misfit(MisfitKind kind, const Traces& shape, const T* modelled, const T* observed,
              const std::vector<float>& weights, T* adjoint_source);

}  // namespace seis::inversion

#pragma once
// A driver's terms in a simulation's time step (seis/imaging: Born modelling's scattering source, the exact
// adjoint's transposed layer, a migration's imaging condition), given to Simulation::advance: the step's fields
// and coefficients are in reach of a term only while it is part of a step, and the simulation keeps its own
// order (record, update, inject, swap) around it.
#include <Kokkos_Core.hpp>

#include "seis/core/layout.hpp"
#include "seis/wave/image_term.hpp"
#include "seis/wave/pml.hpp"

namespace seis::wave {

// The fields of a step, in the layout (halo and padding included), and the step's coefficients: q = V^2 dt^2, the
// density where it varies (density.hpp; empty otherwise), and each axis' damping eta(i) and phi gradient factor at
// local index i + profile_lead (AxisDamping).
template <class Memory>
struct StepFields {
  FieldLayout layout;
  PmlGeometry pml;
  // Before the update: u at step n and n - 1; after the step: n + 1 (sources included) and n.
  Kokkos::View<float*, Memory> u, u_prev;
  // The PML's memory (PmlGeometry::phi_index): what the update reads before it, and wrote after it.
  Kokkos::View<float*, Memory> phi;
  Kokkos::View<const float*, Memory> q, eta[3], gradient[3];
  Kokkos::View<const float*, Memory> rho;
  // The TTI step's second field (tti.hpp) at the steps of u and u_prev; empty for the other steps.
  Kokkos::View<float*, Memory> r, r_prev;
  // Whether the step's kernels carry a Born weight (StepTerm::carried_weight; the simulation's to say), and the
  // points the sources add to after them (their offsets).
  bool carries_weight = false;
  Kokkos::View<const index_t*, Memory> injected = {};
};

template <class Memory>
class StepTerm {
 public:
  virtual ~StepTerm() = default;
  // Before the step's update: what is added to u propagates as the sources' injection does; what is written to
  // phi is the layer's memory term the update reads.
  virtual void before(const StepFields<Memory>&) {}
  // The imaging condition the step's kernels carry at every interior point, u the field it steps from (a code
  // shape's step makes a pass of its own); none where weight is null.
  virtual ImageTerm carried() { return {}; }
  // The Born weight the step's kernels carry (where StepFields::carries_weight), asked after before(); none where
  // weight is null.
  virtual WeightTerm carried_weight() { return {}; }
  // After the step: the receivers recorded u_n, the sources are in u_{n+1}.
  virtual void after(const StepFields<Memory>&) {}
  // Whether before() and after() run work of their own that must see the step done (the simulation then waits for
  // each step on the host); a term that only carries an image lets the steps queue as advance(n)'s do.
  virtual bool waits_for_steps() const { return true; }
  // Whether the term takes the TTI step's second field r as it takes u (an anisotropic medium's step refuses a term
  // that would leave r out).
  virtual bool steps_both_fields() const { return false; }
};

}  // namespace seis::wave

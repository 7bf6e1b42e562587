#pragma once
// The free surface at the model's top face (z = 0, the grid's plane k = 0): zero pressure there by the antisymmetric
// mirror at the stencil's order, u(i, j, 0) = 0 and u(i, j, -m) = -u(i, j, m) for m = 1..R in the halo planes above
// it (the halo's depth: 2R - 1 for the variable-density step), which every step's operator then reads. The mirrored
// Laplacian on the planes below the surface is symmetric (its z weights become w_|k-l| - w_(k+l)), so the exact adjoint
// stays the engine's own step with the mirror; the zeroed plane is a projection, its own transpose. The part holding
// the top face applies it after every step (and after a driver's term adds to the field), so that the field satisfies
// it whenever it is read.
#include <Kokkos_Core.hpp>

#include "seis/core/error.hpp"
#include "seis/core/layout.hpp"
#include "seis/wave/setup.hpp"
#include "seis/wave/subdomain.hpp"

namespace seis::wave {

template <class ExecSpace>
class FreeSurface {
 public:
  FreeSurface() = default;
  // Active on the part holding the grid's top plane of a setup with a free top. That part must hold more planes
  // than the halo's depth: the mirror reads planes 1..depth of its own, which a thinner part's halo holds only after
  // the exchange.
  FreeSurface(const Setup& s, const Subdomain& part, const FieldLayout& layout)
      : active_(holds_free_top(s, part)), layout_(layout), depth_(layout.halo) {
    require(!active_ || part.size[2] > depth_, "a free surface needs the top part of the grid ", part.size[2],
            " planes deep to hold more than the ", depth_, " planes mirrored above it (fewer parts along z)");
  }

  void apply(const ExecSpace& space, float* u) const {
    if (!active_) return;
    const FieldLayout L = layout_;
    const int depth = depth_;
    using Range = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>;
    Kokkos::parallel_for(
        "seis::wave::free_surface", Range(space, {0, 0}, {L.nx, L.ny}), KOKKOS_LAMBDA(const int i, const int j) {
          const int at = L.in_plane(i, j);
          u[L.plane_offset(0) + at] = 0.0f;
          for (int m = 1; m <= depth; ++m) u[L.plane_offset(-m) + at] = -u[L.plane_offset(m) + at];
        });
  }

 private:
  bool active_ = false;
  FieldLayout layout_;
  int depth_ = 0;
};

}  // namespace seis::wave

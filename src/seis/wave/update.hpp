#pragma once
// The time step of the constant-density acoustic wave equation (1/V^2) u_tt - lap(u) = f, second order in time,
// as epilogues of the tile engine: the engine computes lap(u) in one fused pass (x registers, y team scratch, z
// register window), the epilogue turns it into u_next in place of u_prev.
//   inner: u_next = 2 u - u_prev + q lap(u),                                    q = (V dt)^2
//   PML:   u_next = ((2 + 2 eta - eta^2) u - u_prev + q (lap(u) + phi)) / (1 + 2 eta)
//          phi   <- (phi - sum over axes of (eta[+1] - eta[-1]) (u[+1] - u[-1]) / (4 h^2)) / (1 + eta)
// with eta = eta_x(i) + eta_y(j) + eta_z(k) (the CPE'21 paper's Minimod kernel).
// Compulsory traffic: inner points read u, u_prev, q and write u_next (16 B); PML points also read and write
// phi (24 B); the eta profiles are 1D and stay in cache. u_prev, q and phi are loaded one plane ahead, and the
// PML's +-1 neighbours of u come from the stencil's registers and scratch, not from memory.
#include "seis/core/memory_ops.hpp"
#include "seis/kernels/tile_engine.hpp"
#include "seis/wave/pml.hpp"

namespace seis::wave {

// What a point's update reads besides u, loaded one plane ahead by the tile engine.
template <int VEC>
struct WaveAhead {
  Pack<VEC> prev, q, phi;
  std::ptrdiff_t phi_lane0 = 0;  // phi index of lane 0 (PML kernels: a vector's lanes lie in one slab)
};

// The three epilogues differ in which points they update: the inner region only (the two- and seven-domain
// strategies' inner kernel), the PML slabs only, or the whole grid with a branch per vector (unified).
enum class Region { inner, pml, both };

struct WaveArrays {
  float* u_prev;       // u at step n - 1 on entry, n + 1 on exit
  const float* q;      // (V dt)^2, in the field layout
  float* phi;          // PML auxiliary field, PmlGeometry::phi_index
  const float* eta_x;  // damping profiles, eta_x[i] for i in [-1, nx + profile_padding] (the pointer is to i = 0)
  const float* eta_y;
  const float* eta_z;
  PmlGeometry pml;
  float inv_4h2_x, inv_4h2_y, inv_4h2_z;  // 1 / (4 h^2) per axis
  bool nontemporal;

  // u_prev and q as whole vectors (a writer's vector lies inside its row, the lanes outside the box are not
  // used); phi of the lanes [first, last) in the PML, when the kernel updates PML points.
  template <int VEC, Region Where>
  KOKKOS_FORCEINLINE_FUNCTION WaveAhead<VEC> fetch(const FieldLayout& L, int x, int y, int z, int first,
                                                   int last) const {
    const index_t o = L.offset(x, y, z);
    WaveAhead<VEC> a;
    a.prev = load_pack<VEC>(u_prev + o);
    a.q = load_pack<VEC>(q + o);
    if constexpr (Where == Region::pml) {
      // The PML kernels' boxes are the slabs: one phi index per vector (per-lane slab lookups cost the slab
      // kernels more than their memory traffic).
      a.phi_lane0 = pml.slab_index(pml.slab_of(x + first, y, z), x, y, z);
      for (int l = 0; l < VEC; ++l) a.phi.lane[l] = l >= first && l < last ? phi[a.phi_lane0 + l] : 0.0f;
    } else if constexpr (Where == Region::both) {
      if (!inner_vector<VEC>(x, y, z, first, last)) {
        const LayerVector v = layer_vector(x, y, z);
        for (int l = 0; l < VEC; ++l)
          a.phi.lane[l] = l >= first && l < last && v.holds(pml, x + l) ? phi[v.index(pml, x, l)] : 0.0f;
      }
    }
    return a;
  }

  // Whether the lanes [first, last) of the vector at (x, y, z) all lie in the inner region.
  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION bool inner_vector(int x, int y, int z, int first, int last) const {
    return pml.is_inner(x + first, y, z) && pml.is_inner(x + last - 1, y, z);
  }

  // A vector of the layer as the unified kernel sees it: in a y or z slab every lane is in that slab; at the inner
  // region's x edges some lanes are in an x slab and the others inside (a narrow inner region may leave lanes in
  // both x slabs). phi indices run along x within a slab, so two bases give every lane's index.
  struct LayerVector {
    bool whole;                // y or z outside the inner region
    std::ptrdiff_t low, high;  // phi index of lane 0 extended from the low (or the y/z) slab, and the high x slab
    KOKKOS_FORCEINLINE_FUNCTION bool holds(const PmlGeometry& g, int i) const {
      return whole || i < g.inner.x0 || i >= g.inner.x1;
    }
    KOKKOS_FORCEINLINE_FUNCTION std::ptrdiff_t index(const PmlGeometry& g, int x, int l) const {
      return (whole || x + l < g.inner.x0 ? low : high) + l;
    }
  };
  KOKKOS_FORCEINLINE_FUNCTION LayerVector layer_vector(int x, int y, int z) const {
    const bool whole = y < pml.inner.y0 || y >= pml.inner.y1 || z < pml.inner.z0 || z >= pml.inner.z1;
    return whole ? LayerVector{true, pml.slab_index(pml.slab_of(x, y, z), x, y, z), 0}
                 : LayerVector{false, pml.slab_index(x_low, x, y, z), pml.slab_index(x_high, x, y, z)};
  }

  KOKKOS_FORCEINLINE_FUNCTION static float inner_point(float u, float prev, float q_here, float lap) {
    return 2.0f * u - prev + q_here * lap;
  }

  // Lane l of the vector at (x, y, z), a PML point: u_next, and phi's new value in *phi_next.
  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION float pml_point(int x, int y, int z, int l, const Pack<VEC>& u, const Nearest<VEC>& near,
                                              float lap, const WaveAhead<VEC>& a, float* phi_next) const {
    static_assert(VEC <= profile_padding, "a vector's lanes past the grid read eta beyond the padded profile");
    const int i = x + l;
    const float eta = eta_x[i] + eta_y[y] + eta_z[z];
    const float gradient = (eta_x[i + 1] - eta_x[i - 1]) * (near.x_plus.lane[l] - near.x_minus.lane[l]) * inv_4h2_x +
                           (eta_y[y + 1] - eta_y[y - 1]) * (near.y_plus.lane[l] - near.y_minus.lane[l]) * inv_4h2_y +
                           (eta_z[z + 1] - eta_z[z - 1]) * (near.z_plus.lane[l] - near.z_minus.lane[l]) * inv_4h2_z;
    *phi_next = (a.phi.lane[l] - gradient) / (1.0f + eta);
    return ((2.0f + 2.0f * eta - eta * eta) * u.lane[l] - a.prev.lane[l] + a.q.lane[l] * (lap + a.phi.lane[l])) /
           (1.0f + 2.0f * eta);
  }

  // phi's new values of the lanes [first, last), whose indices follow lane0.
  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION void store_phi(std::ptrdiff_t lane0, const float (&value)[VEC], int first,
                                             int last) const {
    for (int l = 0; l < VEC; ++l)
      if (l >= first && l < last) phi[lane0 + l] = value[l];
  }

  // Stores u_next: the whole vector, or the lanes [first, last) of a vector that straddles the box's edge (the
  // lanes outside belong to another launch, possibly running concurrently).
  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION void store(const FieldLayout& L, int x, int y, int z, const Pack<VEC>& next, int first,
                                         int last) const {
    float* target = u_prev + L.offset(x, y, z);
    if (first == 0 && last == VEC) {
      store_output(target, next, nontemporal);
    } else {
      for (int l = 0; l < VEC; ++l)  // constant lane indices: a run-time range would put the packs on the stack
        if (l >= first && l < last) store_output(target + l, next.lane[l], nontemporal);
    }
  }
};

template <Region Where>
struct WaveUpdate {
  WaveArrays a;

  static constexpr bool wants_neighbours = Where != Region::inner;
  template <int VEC>
  using Ahead = WaveAhead<VEC>;
  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION Ahead<VEC> fetch(const FieldLayout& L, int x, int y, int z, int first, int last) const {
    return a.template fetch<VEC, Where>(L, x, y, z, first, last);
  }

  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const FieldLayout& L, int x, int y, int z, const Pack<VEC>& u,
                                              const Nearest<VEC>& near, const float (&lap)[VEC], int first, int last,
                                              const Ahead<VEC>& ahead) const {
    Pack<VEC> next{};
    if (Where == Region::inner || (Where == Region::both && a.template inner_vector<VEC>(x, y, z, first, last))) {
      for (int l = 0; l < VEC; ++l)
        next.lane[l] = WaveArrays::inner_point(u.lane[l], ahead.prev.lane[l], ahead.q.lane[l], lap[l]);
    } else if constexpr (Where == Region::pml) {
      // Every lane in one slab: branch-free lane loops (the host's packed FMAs and divisions); the lanes outside
      // [first, last) compute from valid loads (the profiles are padded) and are not stored.
      float phi_next[VEC];
      for (int l = 0; l < VEC; ++l) next.lane[l] = a.pml_point(x, y, z, l, u, near, lap[l], ahead, &phi_next[l]);
      a.store_phi(ahead.phi_lane0, phi_next, first, last);
    } else {
      // Unified kernel, a vector with lanes in the layer: one branch-free lane loop (the inner lanes of a vector at
      // the x edge select the inner update), phi stored for the layer's lanes.
      const typename WaveArrays::LayerVector v = a.layer_vector(x, y, z);
      float phi_next[VEC];
      for (int l = 0; l < VEC; ++l) {
        const float damped = a.pml_point(x, y, z, l, u, near, lap[l], ahead, &phi_next[l]);
        next.lane[l] = v.holds(a.pml, x + l)
                           ? damped
                           : WaveArrays::inner_point(u.lane[l], ahead.prev.lane[l], ahead.q.lane[l], lap[l]);
      }
      for (int l = 0; l < VEC; ++l)
        if (l >= first && l < last && v.holds(a.pml, x + l)) a.phi[v.index(a.pml, x, l)] = phi_next[l];
    }
    a.store(L, x, y, z, next, first, last);
  }
};
using InnerUpdate = WaveUpdate<Region::inner>;
using PmlUpdate = WaveUpdate<Region::pml>;
using UnifiedUpdate = WaveUpdate<Region::both>;

}  // namespace seis::wave

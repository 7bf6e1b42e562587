#pragma once
// The time step of the constant-density acoustic wave equation (1/V^2) u_tt - lap(u) = f, second order in time,
// as epilogues of the tile engine: the engine computes lap(u) in one fused pass (x registers, y team scratch, z
// register window), the epilogue turns it into u_next in place of u_prev.
//   inner: u_next = 2 u - u_prev + q lap(u),                                    q = (V dt)^2
//   PML:   u_next = ((2 + 2 eta - eta^2) u - u_prev + q (lap(u) + phi)) / (1 + 2 eta)
//          phi   <- (phi - sum over axes of (eta[+1] - eta[-1]) (u[+1] - u[-1]) / (4 h^2)) / (1 + eta)
// with eta = eta_x(i) + eta_y(j) + eta_z(k) (the CPE'21 paper's Minimod kernel).
// Compulsory traffic: inner points read u, u_prev, q and write u_next (16 B); PML points also read and write
// phi (24 B); the eta profiles are 1D and stay in cache.
#include "seis/core/memory_ops.hpp"
#include "seis/wave/pml.hpp"

namespace seis::wave {

struct WaveArrays {
  float* u_prev;       // u at step n - 1 on entry, n + 1 on exit
  const float* q;      // (V dt)^2, in the field layout
  float* phi;          // PML auxiliary field, PmlGeometry::phi_index
  const float* eta_x;  // damping profiles, eta_x[i] for i in [-1, nx] (the pointer is to i = 0)
  const float* eta_y;
  const float* eta_z;
  PmlGeometry pml;
  float inv_4h2_x, inv_4h2_y, inv_4h2_z;  // 1 / (4 h^2) per axis
  bool nontemporal;

  KOKKOS_FORCEINLINE_FUNCTION float inner_point(float u, float prev, float q_here, float lap) const {
    return 2.0f * u - prev + q_here * lap;
  }

  KOKKOS_FUNCTION void pml_point(const FieldLayout& L, const float* u, int i, int j, int k, float lap) const {
    const index_t o = L.offset(i, j, k);
    const float eta = eta_x[i] + eta_y[j] + eta_z[k];
    const std::size_t p = pml.phi_index(i, j, k);
    const float phi_old = phi[p];
    const float here = u[o];
    const float next =
        ((2.0f + 2.0f * eta - eta * eta) * here - u_prev[o] + q[o] * (lap + phi_old)) / (1.0f + 2.0f * eta);
    const float gradient = (eta_x[i + 1] - eta_x[i - 1]) * (u[o + 1] - u[o - 1]) * inv_4h2_x +
                           (eta_y[j + 1] - eta_y[j - 1]) * (u[o + L.ldx] - u[o - L.ldx]) * inv_4h2_y +
                           (eta_z[k + 1] - eta_z[k - 1]) * (u[o + L.plane] - u[o - L.plane]) * inv_4h2_z;
    phi[p] = (phi_old - gradient) / (1.0f + eta);
    store_output(u_prev + o, next, nontemporal);
  }

  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION void inner_vector(const FieldLayout& L, int x, int y, int z, const Pack<VEC>& u,
                                                const float (&lap)[VEC]) const {
    const index_t o = L.offset(x, y, z);
    const Pack<VEC> prev = load_pack<VEC>(u_prev + o);
    const Pack<VEC> q_here = load_pack<VEC>(q + o);
    Pack<VEC> next;
    for (int l = 0; l < VEC; ++l) next.lane[l] = inner_point(u.lane[l], prev.lane[l], q_here.lane[l], lap[l]);
    store_output(u_prev + o, next, nontemporal);
  }
  KOKKOS_FORCEINLINE_FUNCTION void inner_lane(const FieldLayout& L, int i, int j, int k, float u, float lap) const {
    const index_t o = L.offset(i, j, k);
    store_output(u_prev + o, inner_point(u, u_prev[o], q[o], lap), nontemporal);
  }
};

// Inner region only (the two- and seven-domain strategies' inner kernel).
struct InnerUpdate {
  WaveArrays a;
  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const FieldLayout& L, const float*, int x, int y, int z,
                                              const Pack<VEC>& u, const float (&lap)[VEC], int first, int last) const {
    if (first == 0 && last == VEC) {
      a.inner_vector(L, x, y, z, u, lap);
    } else {
      for (int l = first; l < last; ++l) a.inner_lane(L, x + l, y, z, u.lane[l], lap[l]);
    }
  }
};

// PML slabs only.
struct PmlUpdate {
  WaveArrays a;
  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const FieldLayout& L, const float* u, int x, int y, int z,
                                              const Pack<VEC>&, const float (&lap)[VEC], int first, int last) const {
    for (int l = first; l < last; ++l) a.pml_point(L, u, x + l, y, z, lap[l]);
  }
};

// The whole grid in one kernel, a branch per point (the unified strategy).
struct UnifiedUpdate {
  WaveArrays a;
  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const FieldLayout& L, const float* u_here, int x, int y, int z,
                                              const Pack<VEC>& u, const float (&lap)[VEC], int first, int last) const {
    if (first == 0 && last == VEC && a.pml.is_inner(x, y, z) && a.pml.is_inner(x + VEC - 1, y, z)) {
      a.inner_vector(L, x, y, z, u, lap);
      return;
    }
    for (int l = first; l < last; ++l) {
      if (a.pml.is_inner(x + l, y, z)) {
        a.inner_lane(L, x + l, y, z, u.lane[l], lap[l]);
      } else {
        a.pml_point(L, u_here, x + l, y, z, lap[l]);
      }
    }
  }
};

}  // namespace seis::wave

#pragma once
// The time step of the constant-density acoustic wave equation (1/V^2) u_tt - lap(u) = f, second order in time,
// as epilogues of the tile engine: the engine computes lap(u) in one fused pass (x registers, y team scratch, z
// register window), the epilogue turns it into u_next in place of u_prev.
//   inner: u_next = 2 u - u_prev + q lap(u),                                    q = (V dt)^2
//   PML:   u_next = ((2 + 2 eta - eta^2) u - u_prev + q (lap(u) + phi)) / (1 + 2 eta)
//          phi   <- (phi - sum over axes of (eta[+1] - eta[-1]) (u[+1] - u[-1]) / (4 h^2)) / (1 + eta)
// with eta = eta_x(i) + eta_y(j) + eta_z(k) (the CPE'21 paper's Minimod kernel).
// Compulsory traffic: inner points read u, u_prev, q and write u_next (16 B); PML points also read and write
// phi (24 B); the damping is per axis (1D arrays that stay in cache). u_prev, q and phi are loaded one plane ahead,
// all as aligned vectors, and the PML's +-1 neighbours of u come from the stencil's registers and scratch.
#include <algorithm>
#include <climits>
#include <cmath>
#include <utility>

#include "seis/core/memory_ops.hpp"
#include "seis/kernels/tile_engine.hpp"
#include "seis/wave/image_term.hpp"
#include "seis/wave/pml.hpp"

namespace seis::wave {

// What a point's update reads besides u, loaded one plane ahead by the tile engine.
template <int VEC>
struct WaveAhead {
  Pack<VEC> prev, q, phi;
};

// The three epilogues differ in which points they update: the inner region only (the two- and seven-domain
// strategies' inner kernel), the PML slabs only, or the whole grid with a branch per vector (unified).
enum class Region { inner, pml, both };

// The damping a vector's lanes see: eta and the gradient factor along x per lane, along y and z one each.
template <int VEC>
struct Damping {
  Pack<VEC> eta_x, gradient_x;
  float eta_y, gradient_y, eta_z, gradient_z;
};

struct WaveArrays {
  float* u_prev;   // u at step n - 1 on entry, n + 1 on exit
  const float* q;  // (V dt)^2, in the field layout
  float* phi;      // PML auxiliary field, PmlGeometry::slab_index
  // Per axis (AxisDamping, the pointers at local index 0): eta(i) and (eta(i + 1) - eta(i - 1)) / (4 h^2).
  const float *eta_x, *eta_y, *eta_z;
  const float *gradient_x, *gradient_y, *gradient_z;
  PmlGeometry pml;
  bool nontemporal;

  // Whether the lanes [first, last) of the vector at (x, y, z) all lie in the inner region.
  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION bool inner_vector(int x, int y, int z, int first, int last) const {
    return pml.is_inner(x + first, y, z) && pml.is_inner(x + last - 1, y, z);
  }

  // u_prev and q as whole vectors (a writer's vector lies inside its row, the lanes outside the box are not
  // used); phi as one aligned pack of the row that holds the vector's layer lanes (PmlGeometry::launch_slab: the
  // x slabs' rows span the lines of the inner region's edges), none for a vector of inner points, when the kernel
  // updates PML points. One row per vector also serves the unified kernel: picking each lane from two rows cost
  // its step 20% (1.125 -> 0.941 ms, H100, 512^3; perf/NOTES.md 95).
  template <int VEC, Region Where>
  KOKKOS_FORCEINLINE_FUNCTION WaveAhead<VEC> fetch(const FieldLayout& L, int x, int y, int z, int first,
                                                   int last) const {
    const index_t o = L.offset(x, y, z);
    WaveAhead<VEC> a;
    a.prev = load_pack<VEC>(u_prev + o);
    a.q = load_pack<VEC>(q + o);
    if constexpr (Where != Region::inner)
      a.phi = inner_vector<VEC>(x, y, z, first, last)
                  ? Pack<VEC>{}
                  : load_pack<VEC>(phi + pml.slab_index(pml.launch_slab(x, y, z), x, y, z));
    return a;
  }

  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION Damping<VEC> damping(int x, int y, int z) const {
    static_assert(VEC <= profile_padding && phi_alignment % VEC == 0, "profiles and phi rows padded for VEC lanes");
    return {
        load_pack<VEC>(eta_x + x), load_pack<VEC>(gradient_x + x), eta_y[y], gradient_y[y], eta_z[z], gradient_z[z]};
  }

  // One explicit FMA: the host engine updates a point either from a whole vector (host_vector) or in a row loop
  // (host_inner), and a decomposed run must match the whole one bitwise whichever path each point takes; left to
  // contraction, the two paths rounded q lap differently.
  KOKKOS_FORCEINLINE_FUNCTION static float inner_point(float u, float prev, float q_here, float lap) {
    return fmaf(q_here, lap, 2.0f * u - prev);
  }
#if defined(SEIS_HOST_VECTORS)
  // The same on the host engine's vector, lane by lane as fmaf rounds.
  static detail::HostVector inner_point(detail::HostVector u, detail::HostVector prev, detail::HostVector q_here,
                                        detail::HostVector lap) {
    return detail::host_fma(q_here, lap, 2.0f * u - prev);
  }
#endif

  // A PML point's new u and phi.
  template <class T>
  struct PmlNext {
    T u, phi;
  };

  // A PML point: u_next and phi's new value from its damping eta, its phi gradient term (the sum over axes of
  // (eta[+1] - eta[-1]) (u[+1] - u[-1]) / (4 h^2)), u, u_prev, q, lap(u) and phi. T: float, or the host engine's
  // vector (host_edge_vector), whose lanes then round as the float form does. Both values are returned, not one
  // stored through a pointer: deduced from the host vector, T drops its typedef's 4-byte alignment, and a store
  // through T* into a variable of the typedef assumed 64 (UBSan, debug preset).
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION static PmlNext<T> pml_update(T eta, T gradient, T u, T prev, T q_here, T lap, T phi) {
    // One division for both denominators: the division is the longest dependent chain of the update.
    const T phi_damping = 1.0f + eta, u_damping = 1.0f + 2.0f * eta;
    const T reciprocal = 1.0f / (phi_damping * u_damping);
    return {((2.0f + 2.0f * eta - eta * eta) * u - prev + q_here * (lap + phi)) * (phi_damping * reciprocal),
            (phi - gradient) * (u_damping * reciprocal)};
  }

  // Lane l of a PML vector: u_next, and phi's new value in *phi_next.
  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION static float pml_point(int l, const Damping<VEC>& d, const Pack<VEC>& u,
                                                     const Nearest<VEC>& near, float lap, const WaveAhead<VEC>& a,
                                                     float* phi_next) {
    const float eta = d.eta_x.lane[l] + d.eta_y + d.eta_z;
    const float gradient = d.gradient_x.lane[l] * (near.x_plus.lane[l] - near.x_minus.lane[l]) +
                           d.gradient_y * (near.y_plus.lane[l] - near.y_minus.lane[l]) +
                           d.gradient_z * (near.z_plus.lane[l] - near.z_minus.lane[l]);
    const PmlNext<float> next = pml_update(eta, gradient, u.lane[l], a.prev.lane[l], a.q.lane[l], lap, a.phi.lane[l]);
    *phi_next = next.phi;
    return next.u;
  }

  // The host row engine's update of row (y, z) from x0 (u at c, lap(u) in sum, both from x0; sum is overwritten)
  // for the n points of [b, e): inner points, or points of one slab (their phi row contiguous in x).
  void host_inner(const float* c, float* sum, const float* prev, const float* q_row, int b, int e) const {
#if defined(_OPENMP)
#pragma omp simd
#endif
    for (int i = b; i < e; ++i) sum[i] = inner_point(c[i], prev[i], q_row[i], sum[i]);
  }
  void host_layer(const FieldLayout& L, int x0, int y, int z, const float* c, float* sum, const float* prev,
                  const float* q_row, int b, int e) const {
    if (b >= e) return;
    float* phi_row = phi + pml.slab_index(pml.slab_of(x0 + b, y, z), x0 + b, y, z) - b;
    const float* ex = eta_x + x0;
    const float* gx = gradient_x + x0;
    const float ey = eta_y[y], ez = eta_z[z], gy = gradient_y[y], gz = gradient_z[z];
    const std::ptrdiff_t ldx = L.ldx, plane = L.plane;
#if defined(_OPENMP)
#pragma omp simd
#endif
    for (int i = b; i < e; ++i) {
      const float gradient =
          gx[i] * (c[i + 1] - c[i - 1]) + gy * (c[i + ldx] - c[i - ldx]) + gz * (c[i + plane] - c[i - plane]);
      const PmlNext<float> next = pml_update(ex[i] + ey + ez, gradient, c[i], prev[i], q_row[i], sum[i], phi_row[i]);
      sum[i] = next.u;
      phi_row[i] = next.phi;
    }
  }

  // A host row's u_next: points x0 .. x1 - 1 of row (y, z), u at c and the operator's values in sum from x0 (sum is
  // overwritten, phi stored, u_prev left as it was). A row of the layer's x slabs splits into its low slab, the inner
  // points and its high slab; other layer rows lie in one y or z slab.
  void host_next_row(const FieldLayout& L, int x0, int x1, int y, int z, const float* c, float* sum) const {
    const index_t o = L.offset(x0, y, z);
    const float* prev = u_prev + o;
    const float* q_row = q + o;
    const int n = x1 - x0;
    if (pml.layer_row(y, z)) return host_layer(L, x0, y, z, c, sum, prev, q_row, 0, n);
    const int low = std::clamp(pml.inner.x0 - x0, 0, n), high = std::clamp(pml.inner.x1 - x0, low, n);
    host_layer(L, x0, y, z, c, sum, prev, q_row, 0, low);
    host_inner(c, sum, prev, q_row, low, high);
    host_layer(L, x0, y, z, c, sum, prev, q_row, high, n);
  }

#if defined(SEIS_HOST_VECTORS)
  // The host engine's update of the whole vector at (x, y, z) of a row between the y and z slabs whose lanes reach
  // into an x slab (u at c, lap(u) from the pass): the layer lanes as host_layer updates them, the inner ones as
  // host_inner does; phi as one vector of the x slab's row (every such vector lies in one where both x edges are
  // on whole vectors), stored back with the inner lanes' floats (the row's padding) unchanged.
  void host_edge_vector(const FieldLayout& L, int x, int y, int z, index_t o, const float* c,
                        const detail::HostVector& lap) const {
    using detail::host_load;
    using detail::HostVector;
    const HostVector u = host_load(c), prev = host_load(u_prev + o), q_here = host_load(q + o);
    float* phi_row = phi + pml.slab_index(x < pml.edge_x0 ? x_low : x_high, x, y, z);
    const std::ptrdiff_t ldx = L.ldx, plane = L.plane;
    const HostVector eta = host_load(eta_x + x) + eta_y[y] + eta_z[z];
    const HostVector gradient = host_load(gradient_x + x) * (host_load(c + 1) - host_load(c - 1)) +
                                gradient_y[y] * (host_load(c + ldx) - host_load(c - ldx)) +
                                gradient_z[z] * (host_load(c + plane) - host_load(c - plane));
    const HostVector phi_old = host_load(phi_row);
    const auto layer = pml_update(eta, gradient, u, prev, q_here, lap, phi_old);
    const HostVector inner = inner_point(u, prev, q_here, lap);
    const auto lanes = x + detail::host_lanes();
    const auto in = (lanes >= pml.inner.x0) & (lanes < pml.inner.x1);
    *reinterpret_cast<HostVector*>(phi_row) = in ? phi_old : layer.phi;
    detail::host_store_in_place(u_prev + o, in ? inner : layer.u, nontemporal);
  }
#endif

  // The host row engine's prefetch of the phi rows that row (y, z) updates: its y or z slab's row, or the two x
  // slabs' (an AMD EPYC VM, 256^3: seven 12.6-13.3 -> 11.3-12.0 ms, two 12.5-13.7 -> 10.8-12.3, unified level;
  // perf/NOTES.md 77).
  void host_prefetch_phi(int y, int z) const {
    if (pml.thickness == 0) return;
    const auto row = [&](int s) {
      // The engine asks one row past its block's last: none there in the slab, nothing to prefetch.
      const Box& b = pml.slab[s];
      if (y < b.y0 || y >= b.y1 || z < b.z0 || z >= b.z1) return;
      const float* first = phi + pml.slab_index(s, pml.row_origin[s], y, z);
      for (int i = 0; i < pml.row_stride[s]; i += host_line) prefetch_l2(first + i);
    };
    if (pml.layer_row(y, z)) {
      row(pml.slab_of(0, y, z));
    } else {
      row(x_low);
      row(x_high);
    }
  }

  // Stores u_next's lanes [first, last), those inside the launch's box.
  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION void store(const FieldLayout& L, int x, int y, int z, const Pack<VEC>& next, int first,
                                         int last) const {
    store_lanes(u_prev + L.offset(x, y, z), next, first, last, OutputStore{nontemporal});
  }
};

template <Region Where>
struct WaveUpdate {
  WaveArrays a;
  static constexpr Region where = Where;

  static constexpr bool wants_neighbours = Where != Region::inner;
  // One plane per host pass: the update's streams and pointers beside two planes' taps ran the step 12-20% slower
  // (an AMD EPYC VM, 256^3; perf/NOTES.md 76).
  static constexpr int host_planes = 1;
  template <int VEC>
  using Ahead = WaveAhead<VEC>;
  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION Ahead<VEC> fetch(const FieldLayout& L, int x, int y, int z, int first, int last) const {
    return a.template fetch<VEC, Where>(L, x, y, z, first, last);
  }
  // The host row engine asks for u_prev and q of row (y, z) from offset o (n floats), and the PML's phi rows, a
  // pass ahead of their update. Rows that host_row updates after their pass need them, or their misses stall the
  // update (perf/NOTES.md 34, 63, 77); rows updated from the pass's registers (host_vector) only where
  // host_prefetch_every_row says.
  void host_prefetch(index_t o, int n, int y, int z) const {
    if (!host_prefetch_every_row() && (Where == Region::inner || (Where == Region::both && !a.pml.layer_row(y, z))))
      return;
    for (int i = 0; i < n; i += host_line) {
      prefetch_l2(a.u_prev + o + i);
      prefetch_l2(a.q + o + i);
    }
    if constexpr (Where != Region::inner) a.host_prefetch_phi(y, z);
  }

#if defined(SEIS_HOST_VECTORS)
  // The host row engine's in-pass epilogue: whole vectors of row (y, z) updated as the pass computes lap(u), the
  // rest through host_row. The inner launch: all of its box. The unified launch: the rows between the y and z
  // slabs, with their x slabs' vectors (host_edge_vector) where both x edges lie on whole vectors, else their
  // inner points only; through host_row, the x slabs' two short pieces of each such row cost the step more than
  // their points' share (perf/NOTES.md 94, 97). The y and z slabs' rows go through host_row, one loop each.
  std::pair<int, int> host_direct(int y, int z) const {
    if constexpr (Where == Region::inner) return {INT_MIN, INT_MAX};
    if (Where == Region::pml || a.pml.layer_row(y, z)) return {0, 0};
    if (a.pml.edge_x0 % host_pass_width == 0 && a.pml.edge_x1 % host_pass_width == 0) return {INT_MIN, INT_MAX};
    return {a.pml.inner.x0, a.pml.inner.x1};
  }
  // o: the offset of point (x, y, z), u at c.
  void host_vector(const FieldLayout& L, int x, int y, int z, index_t o, const float* c,
                   const detail::HostVector& lap) const {
    if (Where == Region::inner || (a.pml.inner_x(x) && a.pml.inner_x(x + host_pass_width - 1))) {
      using detail::host_load;
      const detail::HostVector u = host_load(c), prev = host_load(a.u_prev + o), q = host_load(a.q + o);
      detail::host_store_in_place(a.u_prev + o, WaveArrays::inner_point(u, prev, q, lap), a.nontemporal);
    } else {
      a.host_edge_vector(L, x, y, z, o, c, lap);
    }
  }
#endif

  // The host row engine's epilogue: points x0 .. x1 - 1 of row (y, z), u at c and lap(u) in sum from x0. A row of
  // the layer's x slabs splits into its low slab, the inner points and its high slab; other layer rows lie in one
  // y or z slab (the PML launches' boxes are slabs: one run).
  void host_row(const FieldLayout& L, int x0, int x1, int y, int z, const float* c, float* sum) const {
    host_next(L, x0, x1, y, z, c, sum);
    store_row(a.u_prev + L.offset(x0, y, z), sum, x1 - x0, a.nontemporal);
  }
  // host_row's u_next into sum (phi stored), u_prev left as it was.
  void host_next(const FieldLayout& L, int x0, int x1, int y, int z, const float* c, float* sum) const {
    if constexpr (Where == Region::inner) {
      const index_t o = L.offset(x0, y, z);
      a.host_inner(c, sum, a.u_prev + o, a.q + o, 0, x1 - x0);
    } else {
      a.host_next_row(L, x0, x1, y, z, c, sum);
    }
  }

  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const FieldLayout& L, int x, int y, int z, const Pack<VEC>& u,
                                              const Nearest<VEC>& near, const float (&lap)[VEC], int first, int last,
                                              const Ahead<VEC>& ahead) const {
    a.store(L, x, y, z, next<VEC>(x, y, z, u, near, lap, first, last, ahead), first, last);
  }

  // operator()'s u_next (phi stored), not stored.
  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION Pack<VEC> next(int x, int y, int z, const Pack<VEC>& u, const Nearest<VEC>& near,
                                             const float (&lap)[VEC], int first, int last,
                                             const Ahead<VEC>& ahead) const {
    Pack<VEC> next{};
    if (Where == Region::inner || a.template inner_vector<VEC>(x, y, z, first, last)) {
      for (int l = 0; l < VEC; ++l)
        next.lane[l] = WaveArrays::inner_point(u.lane[l], ahead.prev.lane[l], ahead.q.lane[l], lap[l]);
    } else {
      // Every lane in one phi row: branch-free lane loops (the host's packed FMAs and divisions); the lanes outside
      // [first, last) compute from valid loads (profiles and phi rows are padded) and are not stored. In an x
      // slab's row, lanes of the inner region take the inner update (their phi lies in the row's padding).
      const Damping<VEC> d = a.template damping<VEC>(x, y, z);
      const bool edge = !a.pml.layer_row(y, z);
      Pack<VEC> phi_next;
      for (int l = 0; l < VEC; ++l) {
        const float damped = WaveArrays::pml_point(l, d, u, near, lap[l], ahead, &phi_next.lane[l]);
        next.lane[l] = edge && a.pml.inner_x(x + l)
                           ? WaveArrays::inner_point(u.lane[l], ahead.prev.lane[l], ahead.q.lane[l], lap[l])
                           : damped;
      }
      store_lanes(a.phi + a.pml.slab_index(a.pml.launch_slab(x, y, z), x, y, z), phi_next, first, last);
    }
    return next;
  }
};

// An epilogue of GPU launches over the fields' y-z transposed view (transposed_yz): the engine's point (x, y, z)
// and its y and z neighbours are the fields' point (x, z, y) and its z and y neighbours. A y slab, ndamp rows deep
// and the inner region's planes long, so walks its rows as a z slab walks its planes (perf/NOTES.md 87).
template <class Epilogue>
struct TransposedYZ {
  Epilogue epilogue;
  FieldLayout fields;  // the fields' own layout
  static constexpr bool wants_neighbours = Epilogue::wants_neighbours;
  template <int VEC>
  using Ahead = typename Epilogue::template Ahead<VEC>;
  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION Ahead<VEC> fetch(const FieldLayout&, int x, int y, int z, int first, int last) const {
    return epilogue.template fetch<VEC>(fields, x, z, y, first, last);
  }
  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const FieldLayout&, int x, int y, int z, const Pack<VEC>& u,
                                              const Nearest<VEC>& near, const float (&lap)[VEC], int first, int last,
                                              const Ahead<VEC>& ahead) const {
    const Nearest<VEC> exchanged{near.x_minus, near.x_plus, near.z_minus, near.z_plus, near.y_minus, near.y_plus};
    epilogue(fields, x, z, y, u, exchanged, lap, first, last, ahead);
  }
};

// The step with the imaging condition fused into it (a StepTerm's carried ImageTerm): the wave update, then the
// image term at the points it updated. Kernels of their own, launched for the imaging steps alone: a test of the
// term in every step's epilogue cost the forward step 2% (perf/NOTES.md 118).
template <Region Where>
struct ImagingUpdate : WaveUpdate<Where> {
  ImageTerm image;

  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const FieldLayout& L, int x, int y, int z, const Pack<VEC>& u,
                                              const Nearest<VEC>& near, const float (&lap)[VEC], int first, int last,
                                              const WaveAhead<VEC>& ahead) const {
    WaveUpdate<Where>::operator()(L, x, y, z, u, near, lap, first, last, ahead);
    image.add(L.offset(x, y, z), u, first, last);
  }
#if defined(SEIS_HOST_VECTORS)
  void host_vector(const FieldLayout& L, int x, int y, int z, index_t o, const float* c,
                   const detail::HostVector& lap) const {
    WaveUpdate<Where>::host_vector(L, x, y, z, o, c, lap);
    image.add_row(o, c, host_pass_width);
  }
#endif
  void host_row(const FieldLayout& L, int x0, int x1, int y, int z, const float* c, float* sum) const {
    WaveUpdate<Where>::host_row(L, x0, x1, y, z, c, sum);
    image.add_row(L.offset(x0, y, z), c, x1 - x0);
  }
};

// The step with its Born weight fused into it (a StepTerm's carried WeightTerm): u_next, then the weight from it, u,
// u_prev (read before u_next replaces it) and q at the points it updated, their damping from the profiles as the
// imaging passes take it (born_weight: the same bits); inner vectors without it (inner_born_weight), whose loads
// and division took 7% of the kernel's time (perf/NOTES.md 162).
template <Region Where>
struct WeightingUpdate : WaveUpdate<Where> {
  WeightTerm term;

  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(const FieldLayout& L, int x, int y, int z, const Pack<VEC>& u,
                                              const Nearest<VEC>& near, const float (&lap)[VEC], int first, int last,
                                              const WaveAhead<VEC>& ahead) const {
    const WaveArrays& a = this->a;
    const Pack<VEC> next = this->template next<VEC>(x, y, z, u, near, lap, first, last, ahead);
    a.store(L, x, y, z, next, first, last);
    Pack<VEC> w;
    if (Where == Region::inner || a.template inner_vector<VEC>(x, y, z, first, last)) {
      for (int l = 0; l < VEC; ++l)
        w.lane[l] = inner_born_weight(ahead.q.lane[l], next.lane[l], u.lane[l], ahead.prev.lane[l]);
    } else {
      const float ey = a.eta_y[y], ez = a.eta_z[z];
      for (int l = 0; l < VEC; ++l)
        w.lane[l] = born_weight(a.eta_x[x + l] + ey + ez, ahead.q.lane[l], next.lane[l], u.lane[l], ahead.prev.lane[l]);
    }
    store_lanes(term.weight + L.offset(x, y, z), w, first, last);
  }
#if defined(SEIS_HOST_VECTORS)
  void host_vector(const FieldLayout& L, int x, int y, int z, index_t o, const float* c,
                   const detail::HostVector& lap) const {
    float before[host_pass_width];
    for (int l = 0; l < host_pass_width; ++l) before[l] = this->a.u_prev[o + l];
    WaveUpdate<Where>::host_vector(L, x, y, z, o, c, lap);
    weigh(x, y, z, o, this->a.u_prev + o, c, before, host_pass_width);
  }
#endif
  void host_row(const FieldLayout& L, int x0, int x1, int y, int z, const float* c, float* sum) const {
    const index_t o = L.offset(x0, y, z);
    this->host_next(L, x0, x1, y, z, c, sum);
    weigh(x0, y, z, o, sum, c, this->a.u_prev + o, x1 - x0);
    store_row(this->a.u_prev + o, sum, x1 - x0, this->a.nontemporal);
  }

 private:
  // The weights of the n points of row (y, z) from x0 (offset o), their u_next, u and u_prev at next, now, before.
  void weigh(int x0, int y, int z, index_t o, const float* next, const float* now, const float* before, int n) const {
    const WaveArrays& a = this->a;
    const float ey = a.eta_y[y], ez = a.eta_z[z];
    const float* ex = a.eta_x + x0;
    const float* q = a.q + o;
    float* w = term.weight + o;
#if defined(_OPENMP)
#pragma omp simd
#endif
    for (int i = 0; i < n; ++i) w[i] = born_weight(ex[i] + ey + ez, q[i], next[i], now[i], before[i]);
  }
};

// The update of `Where`: the plain step, or with the imaging condition or the Born weight it carries.
template <Region Where>
WaveUpdate<Where> step_update(const WaveArrays& a, NoExtra) {
  return {a};
}
template <Region Where>
ImagingUpdate<Where> step_update(const WaveArrays& a, const ImageTerm& image) {
  return {{a}, image};
}
template <Region Where>
WeightingUpdate<Where> step_update(const WaveArrays& a, const WeightTerm& weight) {
  return {{a}, weight};
}

}  // namespace seis::wave

#pragma once
// What Born modelling and its exact adjoint add to the simulation's step engine between its steps (device code, no
// host-only library). The engine's step, per point, is u_{n+1} = D1 u_n - D2 u_{n-1} + D3 q (L u_n + phi_n) plus
// the sources' q w a_n, with D2 = D3 = 1 / (1 + 2 eta), D1 = (2 + 2 eta - eta^2) D2 (eta = 0, D1 = 2 inside the PML)
// and, in the layer, phi_{n+1} = (phi_n - G u_n) / (1 + eta).
//
// Born: the derivative of u_{n+1} in q is D3 (L u_n + phi_n) + w a_n = (u_{n+1} - D1 u_n + D2 u_{n-1}) / q, the
// step's residual, so the scattered wavefield's source dq times that weight comes from three consecutive background
// wavefields without a Laplacian. Adjoint: the transpose of the step (reference/born.hpp, imaging/linearised.hpp)
// in the variable mu = D3 q lambda_u is the engine's own step run backward in time, with phi replaced by
// G^T xi (xi = lambda_phi / (1 + eta), gathered from the neighbouring layer points, so it reaches the inner points
// beside the layer too) and xi_n = (mu_{n+1} + xi_{n+1}) / (1 + eta). AdjointLayer gives each step that term.
//
// Where the density varies (wave/density.hpp) the step takes D3 q (rho L_b u_n + phi_n), L_b symmetric: Born's
// weight is the same residual, and the transpose D3 q rho L_b -> L_b rho q D3 is the engine's step again in
// mu = D3 q rho lambda_u, with phi replaced by rho G^T xi and xi_n = (mu_{n+1} / rho + xi_{n+1}) / (1 + eta); data
// enter mu times rho (the adjoint's injection, Simulation::new_shot) and the image is read out over D3 q rho.
//
// The TTI step (wave/tti.hpp) is linear in q the same way for each of its fields p and r, its sources q times the
// wavelet added after the update: Born's weight is each field's step residual over q, and the scattered wavefield
// takes dq times p's weight into p and r's into r. Its adjoint runs the step's transpose (tti.hpp) in nu = q g lambda,
// g = 1 / (1 + d), whose damping needs no term of the driver; data enter nu_p times q, the step's sources' own
// injection where d = 0, and the image is sum_n (nu_p w_p + nu_r w_r) (1 + d) / q over both fields' Born weights.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <utility>

#include "seis/core/error.hpp"
#include "seis/core/fast_divisor.hpp"
#include "seis/core/layout.hpp"
#include "seis/kernels/team_launch.hpp"
#include "seis/wave/pml.hpp"
#include "seis/wave/step_term.hpp"

namespace seis::imaging::detail {

template <class Memory>
struct StepTerms {
  FieldLayout layout;
  int thickness = 0;  // the PML's points per face (0: none)
  Kokkos::View<const float*, Memory> q, eta[3], gradient[3];
  Kokkos::View<const float*, Memory> rho;  // where the density varies, else empty
  bool tti = false;                        // the TTI step's (its damping term in place of the PML)

  StepTerms() = default;
  explicit StepTerms(const wave::StepFields<Memory>& f)
      : layout(f.layout), thickness(f.pml.thickness), q(f.q), rho(f.rho), tti(f.r.data() != nullptr) {
    for (int a = 0; a < 3; ++a) eta[a] = f.eta[a], gradient[a] = f.gradient[a];
  }

  KOKKOS_INLINE_FUNCTION index_t stride(int axis) const {
    return axis == 0 ? index_t(1) : axis == 1 ? index_t(layout.ldx) : index_t(layout.plane);
  }
  KOKKOS_INLINE_FUNCTION float damping(int i, int j, int k) const {
    return eta[0](i + wave::profile_lead) + eta[1](j + wave::profile_lead) + eta[2](k + wave::profile_lead);
  }
  // (u_{n+1} - D1 u_n + D2 u_{n-1}) / q at offset c of point (i, j, k); in the TTI step, of either field,
  // (f_{n+1} - (2 f_n - (1 - d) f_{n-1}) / (1 + d)) / q, d the damping term's (tti.hpp).
  KOKKOS_INLINE_FUNCTION float born_weight(int i, int j, int k, index_t c, float next, float now, float before) const {
    const float e = damping(i, j, k);
    if (tti) return (next - (2.0f * now - (1.0f - e) * before) / (1.0f + e)) / q(c);
    return wave::born_weight(e, q(c), next, now, before);
  }
  // G^T xi at offset c of point (i, j, k): the transpose of the layer's gradient term, xi zero outside the layer.
  template <class Field>
  KOKKOS_INLINE_FUNCTION float gather(const Field& xi, int i, int j, int k, index_t c) const {
    const int index[3] = {i, j, k};
    float sum = 0.0f;
    for (int a = 0; a < 3; ++a)
      sum += gradient[a](index[a] + 1 + wave::profile_lead) * xi(c + stride(a)) -
             gradient[a](index[a] - 1 + wave::profile_lead) * xi(c - stride(a));
    return sum;
  }
  // 1 / (D3 q rho): lambda_u from mu (rho one where the density does not vary: the same operations as without it);
  // in the TTI step (1 + d) / q, lambda from nu = q g lambda (wave/tti.hpp).
  KOKKOS_INLINE_FUNCTION float adjoint_scale(int i, int j, int k, index_t c) const {
    if (tti) return (1.0f + damping(i, j, k)) / q(c);
    return (1.0f + 2.0f * damping(i, j, k)) / (rho.data() != nullptr ? q(c) * rho(c) : q(c));
  }
  // x rho and x / rho, or x where the density does not vary.
  KOKKOS_INLINE_FUNCTION float times_rho(float x, index_t c) const { return rho.data() != nullptr ? x * rho(c) : x; }
  KOKKOS_INLINE_FUNCTION float over_rho(float x, index_t c) const { return rho.data() != nullptr ? x / rho(c) : x; }
};

template <class ExecSpace>
using Points3 = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>>;

template <class ExecSpace, class Memory>
Points3<ExecSpace> interior(const StepTerms<Memory>& t) {
  return Points3<ExecSpace>({0, 0, 0}, {t.layout.nx, t.layout.ny, t.layout.nz});
}

// The Born weight of step n in place: `weight` holds u_{n-1} and becomes (u_{n+1} - D1 u_n + D2 u_{n-1}) / q.
template <class ExecSpace, class Memory>
void born_weight(const StepTerms<Memory>& t, const Kokkos::View<float*, Memory>& weight,
                 const Kokkos::View<const float*, Memory>& next, const Kokkos::View<const float*, Memory>& now) {
  Kokkos::parallel_for(
      "seis::imaging::born_weight_from_steps", interior<ExecSpace>(t),
      KOKKOS_LAMBDA(const int i, const int j, const int k) {
        const index_t c = t.layout.offset(i, j, k);
        weight(c) = t.born_weight(i, j, k, c, next(c), now(c), weight(c));
      });
}

// The points of `region` within `depth` of its faces as six boxes (z faces whole, y faces between them, x faces
// between those), numbered box after box, x fastest: a launch over them alone (over the whole grid, 71% of a 512^3
// grid's threads had nothing to do, and the backward pass ran 2.7 x the correlation's, perf/NOTES.md 117), one
// launch for the six (a launch a box ran the adjoint's layer term 0.36 -> 0.44 ms at 512^3, perf/NOTES.md 163).
struct FaceShell {
  Box box[6];
  std::size_t first[7] = {};
  FastDivisor row[6], plane[6];  // each box's points a row and a plane

  FaceShell(const Box& r, int depth) {
    const int dz = std::min(depth, r.z1 - r.z0), dy = std::min(depth, r.y1 - r.y0), dx = std::min(depth, r.x1 - r.x0);
    box[0] = {r.x0, r.x1, r.y0, r.y1, r.z0, r.z0 + dz};
    box[1] = {r.x0, r.x1, r.y0, r.y1, std::max(r.z1 - dz, r.z0 + dz), r.z1};
    box[2] = {r.x0, r.x1, r.y0, r.y0 + dy, r.z0 + dz, r.z1 - dz};
    box[3] = {r.x0, r.x1, std::max(r.y1 - dy, r.y0 + dy), r.y1, r.z0 + dz, r.z1 - dz};
    box[4] = {r.x0, r.x0 + dx, r.y0 + dy, r.y1 - dy, r.z0 + dz, r.z1 - dz};
    box[5] = {std::max(r.x1 - dx, r.x0 + dx), r.x1, r.y0 + dy, r.y1 - dy, r.z0 + dz, r.z1 - dz};
    for (int b = 0; b < 6; ++b) {
      require(box[b].points() < std::size_t(1) << 31, "a face shell of ", box[b].points(), " points is over 2^31 - 1");
      first[b + 1] = first[b] + box[b].points();
      const int x = std::max(box[b].x1 - box[b].x0, 1), y = std::max(box[b].y1 - box[b].y0, 1);
      row[b] = FastDivisor(x);
      plane[b] = FastDivisor(x * y);
    }
  }
  std::size_t points() const { return first[6]; }
  // Point n of the shell. A box holds fewer than 2^31 points (a face's depth times a plane): its divisions by a
  // multiply and a shift, where a 32-bit division took about 20 instructions and left the launch issue-bound (74% of
  // the cycles issuing at 0.36 ms, perf/NOTES.md 163).
  KOKKOS_INLINE_FUNCTION void point(std::size_t n, int& i, int& j, int& k) const {
    int b = 0;
    while (n >= first[b + 1]) ++b;
    const Box& x = box[b];
    const DivMod z = plane[b].split(int(n - first[b])), y = row[b].split(z.remainder);
    k = x.z0 + z.quotient;
    j = x.y0 + y.quotient;
    i = x.x0 + y.remainder;
  }
};

// A step carrying the image armed for it (the correlation's receiver side: nothing else, so the steps queue
// without a host wait).
template <class Memory>
class CarriedImage : public wave::StepTerm<Memory> {
 public:
  void arm(const wave::ImageTerm& image) { image_ = image; }
  wave::ImageTerm carried() override { return std::exchange(image_, {}); }
  bool waits_for_steps() const override { return false; }

 private:
  wave::ImageTerm image_;
};

// The exact adjoint's layer term for a Simulation running backward in mu (see above), a term of each of its steps.
// Before the step G^T xi goes where the step reads its memory term: the engine's phi at the layer's points; the
// inner points beside the layer, which the step gives none, get q G^T xi added after it, gathered again from the
// same xi (kept until the next step's gather: no field for it). xi is zero outside the layer, so the gather tests no
// neighbour. Then xi's update from mu_{n+1}. The step also carries the image armed for it (arm).
template <class ExecSpace>
class AdjointLayer : public CarriedImage<typename ExecSpace::memory_space> {
 public:
  using Memory = typename ExecSpace::memory_space;
  using Floats = Kokkos::View<float*, Memory>;

  AdjointLayer(const FieldLayout& layout, const wave::PmlGeometry& pml)
      : pml_(pml),
        layer_(interior_box(layout), pml.thickness + 1),
        beside_(pml.inner, 1),
        xi_("seis::imaging::adjoint xi", layout.size),
        xi_next_("seis::imaging::adjoint xi next", layout.size) {}

  // Zero memory: the adjoint starts from lambda = 0.
  void clear() { Kokkos::deep_copy(xi_, 0.0f); }

  // Points within thickness + 1 of a face: the layer and the inner points its gradient term reaches.
  std::size_t points() const { return pml_.thickness == 0 ? 0 : layer_.points(); }

  void before(const wave::StepFields<Memory>& f) override {
    if (pml_.thickness == 0) return;
    const StepTerms<Memory> t(f);
    const wave::PmlGeometry pml = pml_;
    const auto mu = f.u;
    const auto phi = f.phi;
    const auto xi = xi_, next = xi_next_;
    const FaceShell layer = layer_;
    using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::size_t>>;
    Kokkos::parallel_for(
        "seis::imaging::adjoint_gather", Range(0, layer.points()), KOKKOS_LAMBDA(const std::size_t n) {
          int i, j, k;
          layer.point(n, i, j, k);
          const index_t c = t.layout.offset(i, j, k);
          if (pml.is_inner(i, j, k)) {
            next(c) = 0.0f;
          } else {
            phi(pml.phi_index(i, j, k)) = t.times_rho(t.gather(xi, i, j, k, c), c);
            next(c) = (t.over_rho(mu(c), c) + xi(c)) / (1.0f + t.damping(i, j, k));
          }
        });
    std::swap(xi_, xi_next_);
    ExecSpace().fence();  // the engine steps on its own instance
  }

  // before() and after() run on their own instance, beside the step's.
  bool waits_for_steps() const override { return true; }

  void after(const wave::StepFields<Memory>& f) override {
    if (pml_.thickness == 0) return;
    const StepTerms<Memory> t(f);
    const auto field = f.u;
    const auto xi = xi_next_;  // the xi before() gathered from (swapped since)
    const FaceShell beside = beside_;
    using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::size_t>>;
    Kokkos::parallel_for(
        "seis::imaging::adjoint_beside_layer", Range(0, beside.points()), KOKKOS_LAMBDA(const std::size_t n) {
          int i, j, k;
          beside.point(n, i, j, k);
          const index_t c = t.layout.offset(i, j, k);
          field(c) += t.gather(xi, i, j, k, c) * t.times_rho(t.q(c), c);
        });
    ExecSpace().fence();
  }

 private:
  wave::PmlGeometry pml_;
  FaceShell layer_, beside_;
  Floats xi_, xi_next_;
};

// The Born weight of the step a source-side simulation takes with this term, into `weight` (from u_{n-1} kept
// before it, u_n and u_{n+1} after it); the TTI step's r's into `weight_r` the same way. Where the step's kernels
// carry it (StepFields::carries_weight) they write it from u_{n+1} as they leave it, and the term keeps u_{n-1} only
// at the sources' points, whose u_{n+1} changes after the kernels, to take their weights again: the passes' values,
// 4 bytes a point written instead of 32 moved. (Under a free surface the plane k = 0 is zeroed after the kernels
// too; its weight differs from the passes' but meets the adjoint field there, which is zero.)
template <class ExecSpace>
class BornWeight : public wave::StepTerm<typename ExecSpace::memory_space> {
 public:
  using Memory = typename ExecSpace::memory_space;
  Kokkos::View<float*, Memory> weight, weight_r;

  void before(const wave::StepFields<Memory>& f) override {
    carried_ = f.carries_weight;
    if (!carried_) {
      Kokkos::deep_copy(weight, f.u_prev);
      if (f.r_prev.data() != nullptr) Kokkos::deep_copy(weight_r, f.r_prev);
      return;
    }
    const std::size_t sources = f.injected.extent(0);
    if (kept_.extent(0) < sources)
      kept_ = Kokkos::View<float*, Memory>(
          Kokkos::view_alloc("seis::imaging::u_{n-1} at the sources", Kokkos::WithoutInitializing), sources);
    const auto kept = kept_;
    const auto prev = f.u_prev;
    const auto injected = f.injected;
    Kokkos::parallel_for(
        "seis::imaging::keep_at_sources", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::size_t>>(0, sources),
        KOKKOS_LAMBDA(const std::size_t p) { kept(p) = prev(injected(p)); });
    ExecSpace().fence();  // the engine steps on its own instance
  }

  wave::WeightTerm carried_weight() override { return {carried_ ? weight.data() : nullptr}; }

  void after(const wave::StepFields<Memory>& f) override {
    const StepTerms<Memory> t(f);
    if (!carried_) {
      born_weight<ExecSpace, Memory>(t, weight, f.u, f.u_prev);
      if (t.tti) born_weight<ExecSpace, Memory>(t, weight_r, f.r, f.r_prev);
      return;
    }
    const FieldLayout L = f.layout;
    const auto kept = kept_;
    const auto w = weight;
    const auto next = f.u, now = f.u_prev;
    const auto injected = f.injected;
    Kokkos::parallel_for(
        "seis::imaging::weigh_at_sources",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::size_t>>(0, injected.extent(0)),
        KOKKOS_LAMBDA(const std::size_t p) {
          const index_t c = injected(p);
          int i, j, k;
          L.point(c, i, j, k);
          w(c) = t.born_weight(i, j, k, c, next(c), now(c), kept(p));
        });
    ExecSpace().fence();
  }
  bool steps_both_fields() const override { return true; }

 private:
  bool carried_ = false;
  Kokkos::View<float*, Memory> kept_;  // u_{n-1} at the sources' points
};

}  // namespace seis::imaging::detail

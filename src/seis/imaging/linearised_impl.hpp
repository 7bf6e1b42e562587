#pragma once
// Linearised<ExecSpace>'s definition, instantiated once per backend (instantiate_linearised.cpp.in).
#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "seis/core/coefficients.hpp"
#include "seis/core/device_copy.hpp"
#include "seis/core/error.hpp"
#include "seis/imaging/linearised.hpp"
#include "seis/wave/pml.hpp"

namespace seis::imaging {

namespace detail {

// The scheme on the padded grid (the interior and R zero planes around it, x fastest), as reference::WaveReference
// holds it, in float: V^2 dt^2, the PML's damping profiles (one value beyond each end), the weights of the
// order-2R Laplacian.
template <class Memory>
struct Scheme {
  int nx = 0, ny = 0, nz = 0, radius = 0, ndamp = 0;
  std::size_t sx = 0, sxy = 0, size = 0;
  Kokkos::View<float*, Memory> q, eta_x, eta_y, eta_z;
  Kokkos::Array<float, max_radius + 1> w{};
  float inverse_4h2 = 0;

  KOKKOS_INLINE_FUNCTION std::size_t at(int i, int j, int k) const {
    return std::size_t(k + radius) * sxy + std::size_t(j + radius) * sx + std::size_t(i + radius);
  }
  KOKKOS_INLINE_FUNCTION bool in_pml(int i, int j, int k) const {
    return i < ndamp || i >= nx - ndamp || j < ndamp || j >= ny - ndamp || k < ndamp || k >= nz - ndamp;
  }
  KOKKOS_INLINE_FUNCTION float damping(int i, int j, int k) const { return eta_x(i + 1) + eta_y(j + 1) + eta_z(k + 1); }
  // The PML's gradient term's weight along `axis` at `index`: (eta(index + 1) - eta(index - 1)) / (4 h^2).
  KOKKOS_INLINE_FUNCTION float gradient_weight(int axis, int index) const {
    const auto& eta = axis == 0 ? eta_x : axis == 1 ? eta_y : eta_z;
    return (eta(index + 2) - eta(index)) * inverse_4h2;
  }
  KOKKOS_INLINE_FUNCTION float lap(const float* f, std::size_t c) const {
    float sum = 3.0f * w[0] * f[c];
    for (int m = 1; m <= radius; ++m)
      sum += w[m] * (f[c - m] + f[c + m] + f[c - m * sx] + f[c + m * sx] + f[c - m * sxy] + f[c + m * sxy]);
    return sum;
  }
  KOKKOS_INLINE_FUNCTION int extent(int axis) const { return axis == 0 ? nx : axis == 1 ? ny : nz; }
  KOKKOS_INLINE_FUNCTION std::size_t stride(int axis) const { return axis == 0 ? 1 : axis == 1 ? sx : sxy; }
};

template <class ExecSpace>
using Interior = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>>;

template <class ExecSpace, class Memory>
Interior<ExecSpace> interior(const Scheme<Memory>& s) {
  return Interior<ExecSpace>({0, 0, 0}, {s.nx, s.ny, s.nz});
}

// One step of the scheme: u_prev becomes u_{n+1}, phi phi_{n+1} (the caller swaps u and u_prev).
template <class ExecSpace, class Memory>
void step(const Scheme<Memory>& s, const float* u, float* u_prev, float* phi) {
  Kokkos::parallel_for(
      "seis::imaging::step", interior<ExecSpace>(s), KOKKOS_LAMBDA(const int i, const int j, const int k) {
        const std::size_t c = s.at(i, j, k);
        const float l = s.lap(u, c);
        if (!s.in_pml(i, j, k)) {
          u_prev[c] = 2.0f * u[c] - u_prev[c] + s.q(c) * l;
          return;
        }
        const float eta = s.damping(i, j, k);
        u_prev[c] = ((2.0f + 2.0f * eta - eta * eta) * u[c] - u_prev[c] + s.q(c) * (l + phi[c])) / (1.0f + 2.0f * eta);
        const int index[3] = {i, j, k};
        float gradient = 0.0f;
        for (int a = 0; a < 3; ++a)
          gradient += s.gradient_weight(a, index[a]) * (u[c + s.stride(a)] - u[c - s.stride(a)]);
        phi[c] = (phi[c] - gradient) / (1.0f + eta);
      });
}

// Grid points with weights, merged by point (several sources' or receivers' corners may coincide) so that adding
// needs no atomics and runs in one order: point p adds sum over its entries e in [first(p), first(p + 1)) of
// weight(e) x value(owner(e)).
template <class Memory>
struct Points {
  Kokkos::View<std::size_t*, Memory> offset;
  Kokkos::View<int*, Memory> first, owner;
  Kokkos::View<float*, Memory> weight;
  int count = 0;
};

template <class Memory, class Offset>
Points<Memory> merge(const wave::Setup& s, const std::vector<wave::Point>& points, const Offset& offset_of) {
  std::map<std::size_t, std::vector<std::pair<int, double>>> by_offset;
  for (std::size_t p = 0; p < points.size(); ++p) {
    const wave::Stencil8 st = wave::trilinear(s, points[p]);
    for (int c = 0; c < 8; ++c)
      if (st.w[c] != 0.0) by_offset[offset_of(st.i[c], st.j[c], st.k[c])].push_back({int(p), st.w[c]});
  }
  std::vector<std::size_t> offset;
  std::vector<int> first{0}, owner;
  std::vector<float> weight;
  for (const auto& [o, entries] : by_offset) {
    offset.push_back(o);
    for (const auto& [who, w] : entries) owner.push_back(who), weight.push_back(float(w));
    first.push_back(int(owner.size()));
  }
  return {to_device<Memory>("seis::imaging::point offset", offset),
          to_device<Memory>("seis::imaging::point first", first),
          to_device<Memory>("seis::imaging::point owner", owner),
          to_device<Memory>("seis::imaging::point weight", weight), int(offset.size())};
}

// field[offset(p)] += sum of weight x value(owner) x scale(p) over point p's entries: value(owner) is values(owner x
// stride + sample), scale(p) is scale[offset(p)] (null: 1).
template <class ExecSpace, class Memory>
void add_points(const Points<Memory>& points, float* field, const float* values, std::size_t stride, std::size_t sample,
                const float* scale) {
  if (points.count == 0) return;
  Kokkos::parallel_for(
      "seis::imaging::add_points", Kokkos::RangePolicy<ExecSpace>(0, points.count), KOKKOS_LAMBDA(const int p) {
        float sum = 0.0f;
        for (int e = points.first(p); e < points.first(p + 1); ++e)
          sum += points.weight(e) * values[std::size_t(points.owner(e)) * stride + sample];
        const std::size_t o = points.offset(p);
        field[o] += scale != nullptr ? sum * scale[o] : sum;
      });
}

// target += a b, value by value.
template <class ExecSpace, class Floats>
void add_product(const Floats& target, const Floats& a, const Floats& b) {
  Kokkos::parallel_for(
      "seis::imaging::add_product", Kokkos::RangePolicy<ExecSpace>(std::size_t(0), target.size()),
      KOKKOS_LAMBDA(const std::size_t c) { target(c) += a(c) * b(c); });
}

// Receiver r's sample n (of `samples`): its eight corners' weights times u.
template <class ExecSpace, class Floats, class Offsets>
void record(const Floats& traces, const Floats& u, const Offsets& offset, const Floats& weight, int receivers,
            std::size_t samples, int n) {
  Kokkos::parallel_for(
      "seis::imaging::record", Kokkos::RangePolicy<ExecSpace>(0, receivers), KOKKOS_LAMBDA(const int r) {
        float sum = 0.0f;
        for (int c = 0; c < 8; ++c) sum += weight(r * 8 + c) * u(offset(r * 8 + c));
        traces(std::size_t(r) * samples + std::size_t(n)) = sum;
      });
}

// B_n's weight on dq from the background's u_n and phi_n: (L u + phi) / (1 + 2 eta) in the PML, L u inside.
template <class ExecSpace, class Memory>
void born_weight(const Scheme<Memory>& s, const float* u, const float* phi, float* weight) {
  Kokkos::parallel_for(
      "seis::imaging::born_weight", interior<ExecSpace>(s), KOKKOS_LAMBDA(const int i, const int j, const int k) {
        const std::size_t o = s.at(i, j, k);
        const float l = s.lap(u, o);
        weight[o] = s.in_pml(i, j, k) ? (l + phi[o]) / (1.0f + 2.0f * s.damping(i, j, k)) : l;
      });
}

}  // namespace detail

template <class ExecSpace>
struct Linearised<ExecSpace>::Impl {
  using Memory = typename ExecSpace::memory_space;
  using Floats = Kokkos::View<float*, Memory>;
  wave::Setup setup;
  detail::Scheme<Memory> scheme;
  detail::Points<Memory> sources, receivers;
  Kokkos::View<std::size_t*, Memory> recording_offset;  // [receiver][corner]
  Floats recording_weight, amplitude;                   // amplitude: the wavelet / h^3 at every step
  // Per step n: B_n's weight on dq at every padded point, (L u_n + phi_n) / (1 + 2 eta) (eta = 0, no phi outside
  // the PML) plus the sources' w a_n at their corners.
  std::vector<Floats> weight;
  Floats illumination;

  Floats field(const char* label) const { return Floats(std::string(label), scheme.size); }

  // A padded field's interior, x fastest.
  std::vector<float> interior(const Floats& padded_field) const {
    std::vector<float> host(scheme.size);
    Kokkos::deep_copy(
        Kokkos::View<float*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(host.data(), host.size()),
        padded_field);
    std::vector<float> out;
    out.reserve(setup.velocity.size());
    for (int k = 0; k < setup.nz; ++k)
      for (int j = 0; j < setup.ny; ++j)
        for (int i = 0; i < setup.nx; ++i) out.push_back(host[scheme.at(i, j, k)]);
    return out;
  }

  // An interior vector (x fastest) on the padded grid.
  Floats padded(const std::vector<float>& interior) const {
    std::vector<float> host(scheme.size, 0.0f);
    std::size_t p = 0;
    for (int k = 0; k < setup.nz; ++k)
      for (int j = 0; j < setup.ny; ++j)
        for (int i = 0; i < setup.nx; ++i) host[scheme.at(i, j, k)] = interior[p++];
    return to_device<Memory>("seis::imaging::padded", host);
  }
};

template <class ExecSpace>
Linearised<ExecSpace>::Linearised(const wave::Setup& background) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  wave::validate(background, static_cast<std::size_t>(-1));
  require(background.top == wave::Top::absorbing,
          "the per-point Born operator (imaging::Linearised) has an absorbing top only: a free surface's Born and "
          "adjoint run on the simulation's step engine (imaging::Born, imaging::Migration)");
  require(!wave::variable_density(background),
          "the per-point Born operator (imaging::Linearised) runs the constant-density equation: a density that varies "
          "runs on the simulation's step engine (imaging::Born, imaging::Migration)");
  require(!wave::tti_medium(background),
          "the per-point Born operator (imaging::Linearised) runs the isotropic equation: an anisotropic medium's Born "
          "modelling runs on the simulation's step engine (imaging::Born)");
  m.setup = background;
  const auto& s = background;
  auto& g = m.scheme;
  g.nx = s.nx, g.ny = s.ny, g.nz = s.nz, g.radius = s.radius;
  g.ndamp = s.boundary == wave::Boundary::pml ? s.ndamp : 0;
  g.sx = std::size_t(s.nx + 2 * s.radius);
  g.sxy = g.sx * std::size_t(s.ny + 2 * s.radius);
  g.size = g.sxy * std::size_t(s.nz + 2 * s.radius);
  const StencilCoefficients c = make_coefficients(s.radius, s.h, s.h, s.h);
  for (int r = 0; r <= s.radius; ++r) g.w[r] = float(c.x[std::size_t(r)]);
  g.inverse_4h2 = float(1.0 / (4.0 * s.h * s.h));
  const double scale = wave::damping_scale(s.dt, wave::model_vmax(s), g.ndamp, s.h);
  using Memory = typename Impl::Memory;
  g.eta_x = to_device<Memory>("seis::imaging::eta_x", wave::damping_profile(s.nx, g.ndamp, scale));
  g.eta_y = to_device<Memory>("seis::imaging::eta_y", wave::damping_profile(s.ny, g.ndamp, scale));
  g.eta_z = to_device<Memory>("seis::imaging::eta_z", wave::damping_profile(s.nz, g.ndamp, scale));
  std::vector<float> q(s.velocity.size());
  for (std::size_t p = 0; p < q.size(); ++p) q[p] = float(double(s.velocity[p]) * s.velocity[p] * s.dt * s.dt);
  g.q = m.padded(q);

  const auto offset_of = [&](int i, int j, int k) { return g.at(i, j, k); };
  m.sources = detail::merge<Memory>(s, s.sources, offset_of);
  m.receivers = detail::merge<Memory>(s, s.receivers, offset_of);
  std::vector<std::size_t> recording_offset;
  std::vector<float> recording_weight, amplitude;
  for (const wave::Point& p : s.receivers) {
    const wave::Stencil8 st = wave::trilinear(s, p);
    for (int corner = 0; corner < 8; ++corner) {
      recording_offset.push_back(g.at(st.i[corner], st.j[corner], st.k[corner]));
      recording_weight.push_back(float(st.w[corner]));
    }
  }
  for (int n = 0; n < s.steps; ++n)
    amplitude.push_back(float(wave::wavelet(s.wavelet, s.f0, n * s.dt) / (s.h * s.h * s.h)));
  m.recording_offset = to_device<Memory>("seis::imaging::recording offset", recording_offset);
  m.recording_weight = to_device<Memory>("seis::imaging::recording weight", recording_weight);
  m.amplitude = to_device<Memory>("seis::imaging::amplitude", amplitude);

  m.illumination = m.field("seis::imaging::illumination");
  // The background forward, keeping each step's Born weights.
  auto u = m.field("seis::imaging::u"), u_prev = m.field("seis::imaging::u_prev"), phi = m.field("seis::imaging::phi");
  for (int n = 0; n < s.steps; ++n) {
    auto weight = m.field("seis::imaging::born weight");
    detail::born_weight<ExecSpace>(g, u.data(), phi.data(), weight.data());
    detail::add_points<ExecSpace>(m.sources, weight.data(), m.amplitude.data(), 0, std::size_t(n), nullptr);
    m.weight.push_back(weight);
    detail::add_product<ExecSpace>(m.illumination, u, u);
    detail::step<ExecSpace>(g, u.data(), u_prev.data(), phi.data());
    detail::add_points<ExecSpace>(m.sources, u_prev.data(), m.amplitude.data(), 0, std::size_t(n), g.q.data());
    std::swap(u, u_prev);
  }
  Kokkos::fence();
}

template <class ExecSpace>
Linearised<ExecSpace>::~Linearised() = default;

template <class ExecSpace>
std::vector<float> Linearised<ExecSpace>::born(const std::vector<float>& dq) const {
  const Impl& m = *impl_;
  const auto& s = m.setup;
  require(dq.size() == s.velocity.size(), "dq has ", dq.size(), " values, the grid ", s.velocity.size());
  const auto perturbation = m.padded(dq);
  auto u = m.field("seis::imaging::du"), u_prev = m.field("seis::imaging::du_prev"),
       phi = m.field("seis::imaging::dphi");
  typename Impl::Floats traces("seis::imaging::born traces", std::max<std::size_t>(s.receivers.size() * s.steps, 1));
  for (int n = 0; n < s.steps; ++n) {
    detail::record<ExecSpace>(traces, u, m.recording_offset, m.recording_weight, int(s.receivers.size()),
                              std::size_t(s.steps), n);
    detail::step<ExecSpace>(m.scheme, u.data(), u_prev.data(), phi.data());
    detail::add_product<ExecSpace>(u_prev, m.weight[std::size_t(n)], perturbation);
    std::swap(u, u_prev);
  }
  std::vector<float> out(s.receivers.size() * std::size_t(s.steps));
  if (!out.empty())
    Kokkos::deep_copy(
        Kokkos::View<float*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(out.data(), out.size()),
        Kokkos::subview(traces, std::make_pair(std::size_t(0), out.size())));
  return out;
}

template <class ExecSpace>
std::vector<float> Linearised<ExecSpace>::adjoint(const std::vector<float>& data) const {
  const Impl& m = *impl_;
  const auto& s = m.setup;
  const std::size_t samples = std::size_t(s.steps);
  require(data.size() == s.receivers.size() * samples, "data has ", data.size(), " values, ", s.receivers.size(),
          " receivers x ", samples, " samples need ", s.receivers.size() * samples);
  const auto traces = to_device<typename Impl::Memory>("seis::imaging::adjoint data", data);
  // lambda_{n+1} as (u, u_prev, phi) and lambda_n being made; scaled: q D3 lambda_u, which L^T = L takes.
  auto lu = m.field("seis::imaging::lambda_u"), lp = m.field("seis::imaging::lambda_u_prev"),
       lf = m.field("seis::imaging::lambda_phi"), nu = m.field("seis::imaging::lambda_u next"),
       np = m.field("seis::imaging::lambda_u_prev next"), nf = m.field("seis::imaging::lambda_phi next"),
       scaled = m.field("seis::imaging::lambda scaled"), image = m.field("seis::imaging::image");
  const auto g = m.scheme;
  for (int n = s.steps - 1; n >= 0; --n) {
    detail::add_product<ExecSpace>(image, m.weight[std::size_t(n)], lu);
    const auto lu_ = lu, lp_ = lp, lf_ = lf, nu_ = nu, np_ = np, nf_ = nf, scaled_ = scaled;
    Kokkos::parallel_for(
        "seis::imaging::adjoint_scale", detail::interior<ExecSpace>(g),
        KOKKOS_LAMBDA(const int i, const int j, const int k) {
          const std::size_t c = g.at(i, j, k);
          const float eta = g.in_pml(i, j, k) ? g.damping(i, j, k) : 0.0f;
          scaled_(c) = g.q(c) * lu_(c) / (1.0f + 2.0f * eta);
        });
    // The transpose of u_{n+1} = D1 u_n - D2 u_{n-1} + D3 q (L u_n + phi_n), u_prev' = u_n and, in the PML,
    // phi_{n+1} = (phi_n - G u_n) / (1 + eta), D3 = D2 = 1 / (1 + 2 eta), D1 = (2 + 2 eta - eta^2) D2; G^T gathered
    // from the neighbours' PML points, so every point is written once.
    Kokkos::parallel_for(
        "seis::imaging::adjoint_step", detail::interior<ExecSpace>(g),
        KOKKOS_LAMBDA(const int i, const int j, const int k) {
          const std::size_t c = g.at(i, j, k);
          const bool pml = g.in_pml(i, j, k);
          const float eta = pml ? g.damping(i, j, k) : 0.0f, d2 = 1.0f / (1.0f + 2.0f * eta);
          float next = (2.0f + 2.0f * eta - eta * eta) * d2 * lu_(c) + g.lap(scaled_.data(), c) + lp_(c);
          const int index[3] = {i, j, k};
          for (int a = 0; a < 3; ++a) {
            int up[3] = {i, j, k}, down[3] = {i, j, k};
            ++up[a], --down[a];
            if (index[a] + 1 < g.extent(a) && g.in_pml(up[0], up[1], up[2]))
              next +=
                  g.gradient_weight(a, index[a] + 1) * lf_(c + g.stride(a)) / (1.0f + g.damping(up[0], up[1], up[2]));
            if (index[a] > 0 && g.in_pml(down[0], down[1], down[2]))
              next -= g.gradient_weight(a, index[a] - 1) * lf_(c - g.stride(a)) /
                      (1.0f + g.damping(down[0], down[1], down[2]));
          }
          nu_(c) = next;
          np_(c) = -d2 * lu_(c);
          nf_(c) = pml ? scaled_(c) + lf_(c) / (1.0f + eta) : lf_(c);
        });
    detail::add_points<ExecSpace>(m.receivers, nu.data(), traces.data(), samples, std::size_t(n), nullptr);
    std::swap(lu, nu);
    std::swap(lp, np);
    std::swap(lf, nf);
  }
  return m.interior(image);
}

template <class ExecSpace>
std::vector<float> Linearised<ExecSpace>::illumination() const {
  return impl_->interior(impl_->illumination);
}

}  // namespace seis::imaging

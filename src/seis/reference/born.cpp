#include "seis/reference/born.hpp"

#include "seis/core/error.hpp"
#include "seis/reference/wave_step.hpp"

namespace seis::reference {

namespace {

// Another stream of the same rounding model (none without one).
std::optional<FloatRounding> derived(const std::optional<FloatRounding>& model, unsigned long long stream) {
  if (!model) return {};
  return FloatRounding{model->seed * 4 + stream};
}

// The points of the grid's interior, in x-fastest order, with their padded index.
template <class Visit>
void for_interior(const wave::Setup& s, const WaveReference& grid, const Visit& visit) {
  std::size_t n = 0;
  for (int k = 0; k < s.nz; ++k)
    for (int j = 0; j < s.ny; ++j)
      for (int i = 0; i < s.nx; ++i) visit(i, j, k, grid.at(i, j, k), n++);
}

}  // namespace

BornReference::BornReference(const wave::Setup& background, const std::optional<FloatRounding>& rounding)
    : linear_(background), rounding_(rounding) {
  linear_.sources.clear();
  WaveReference forward(background, rounding);
  RoundingErrors error(derived(rounding, 1));
  const auto& s = background;
  std::vector<double> before(forward.padded_size(), 0.0);
  for (int n = 0; n < s.steps; ++n) {
    std::vector<double> weight(forward.padded_size(), 0.0);
    const std::vector<double> now = forward.padded_u();
    const std::vector<double>& phi = forward.padded_phi();
    for_interior(s, forward, [&](int i, int j, int k, std::size_t c, std::size_t) {
      const double l = forward.lap(now, i, j, k);
      weight[c] = forward.in_pml(i, j, k) ? (l + phi[c]) / (1.0 + 2.0 * forward.damping(i, j, k)) : l;
    });
    const double amplitude = wave::wavelet(s.wavelet, s.f0, n * s.dt) / (s.h * s.h * s.h);
    for (const wave::Point& p : s.sources) {
      const wave::Stencil8 st = wave::trilinear(s, p);
      for (int c = 0; c < 8; ++c) weight[forward.at(st.i[c], st.j[c], st.k[c])] += st.w[c] * amplitude;
    }
    forward.advance(1);
    if (error.on()) {
      // The engine forms the weight from three wavefields, (u_{n+1} - D1 u_n + D2 u_{n-1}) / q: 8 roundings of
      // terms of that size, which their difference cancels.
      const std::vector<double>& next = forward.padded_u();
      for_interior(s, forward, [&](int i, int j, int k, std::size_t c, std::size_t) {
        const double e = forward.in_pml(i, j, k) ? forward.damping(i, j, k) : 0.0, d2 = 1.0 / (1.0 + 2.0 * e);
        const double size =
            std::abs(next[c]) + (2.0 + 2.0 * e - e * e) * d2 * std::abs(now[c]) + d2 * std::abs(before[c]);
        weight[c] += error(size / forward.q(i, j, k), 8);
      });
    }
    weight_.push_back(std::move(weight));
    before = now;
  }
}

std::vector<double> BornReference::born(const std::vector<double>& dq) const {
  require(dq.size() == linear_.velocity.size(), "dq has ", dq.size(), " values, the grid ", linear_.velocity.size());
  WaveReference state(linear_, derived(rounding_, 2));
  RoundingErrors error(derived(rounding_, 3));
  std::vector<double> source(state.padded_size());
  for (int n = 0; n < linear_.steps; ++n) {
    state.advance(1);
    for_interior(linear_, state, [&](int, int, int, std::size_t c, std::size_t p) {
      source[c] = weight_[n][c] * dq[p];
      source[c] += error(std::abs(state.padded_u()[c]) + std::abs(source[c]), 2);  // the product, the sum
    });
    state.add_to_u(source);
  }
  return state.traces();
}

std::vector<double> BornReference::adjoint(const std::vector<double>& data) const {
  const auto& s = linear_;
  const std::size_t samples = std::size_t(s.steps);
  require(data.size() == s.receivers.size() * samples, "data has ", data.size(), " values, ", s.receivers.size(),
          " receivers x ", samples, " samples need ", s.receivers.size() * samples);
  const WaveReference grid(s, derived(rounding_, 4));
  RoundingErrors error(derived(rounding_, 5));
  const std::size_t size = grid.padded_size();
  std::vector<double> image(s.velocity.size(), 0.0);
  // lambda_{n+1} as (u, u_prev, phi) and lambda_n being made; scaled: q D3 lambda_u, which L^T = L takes.
  std::vector<double> lu(size, 0.0), lp(size, 0.0), lf(size, 0.0), nu(size), np(size), nf(size), scaled(size, 0.0);
  const int size_of[3] = {s.nx, s.ny, s.nz};
  for (int n = s.steps - 1; n >= 0; --n) {
    for_interior(s, grid, [&](int, int, int, std::size_t c, std::size_t p) {
      const double term = weight_[n][c] * lu[c];
      image[p] += term + error(std::abs(image[p]) + std::abs(term), 2);
    });
    for_interior(s, grid, [&](int i, int j, int k, std::size_t c, std::size_t) {
      const double eta = grid.in_pml(i, j, k) ? grid.damping(i, j, k) : 0.0;
      scaled[c] = grid.q(i, j, k) * lu[c] / (1.0 + 2.0 * eta);
      scaled[c] += error(std::abs(scaled[c]), 3);
    });
    std::fill(nu.begin(), nu.end(), 0.0);
    for_interior(s, grid, [&](int i, int j, int k, std::size_t c, std::size_t) {
      // u_{n+1} = D1 u_n - D2 u_{n-1} + D3 q (L u_n + phi_n), D3 = D2 = 1 / (1 + 2 eta), D1 = (2 + 2 eta - eta^2) D2;
      // u_n's next u_prev is u_n; phi_{n+1} = (phi_n - G u_n) / (1 + eta) in the PML.
      const bool pml = grid.in_pml(i, j, k);
      const double eta = pml ? grid.damping(i, j, k) : 0.0, d2 = 1.0 / (1.0 + 2.0 * eta);
      const double d1 = (2.0 + 2.0 * eta - eta * eta) * d2;
      // The transposed step's roundings, as the forward step's (WaveReference): 6R + 5, 8 more in the layer.
      nu[c] += d1 * lu[c] + grid.lap(scaled, i, j, k) + lp[c] +
               error(d1 * std::abs(lu[c]) + grid.lap_magnitude(scaled, i, j, k) + std::abs(lp[c]),
                     6 * s.radius + (pml ? 13 : 5));
      np[c] = -d2 * lu[c];
      if (!pml) {
        nf[c] = lf[c];
        return;
      }
      const double y = lf[c] / (1.0 + eta);
      nf[c] = scaled[c] + y + error(std::abs(scaled[c]) + std::abs(y), 3);
      const int index[3] = {i, j, k};
      for (int a = 0; a < 3; ++a) {
        const double g = grid.gradient_weight(a, index[a]) * y;
        if (index[a] + 1 < size_of[a]) nu[c + grid.stride(a)] -= g + error(std::abs(g), 2);
        if (index[a] > 0) nu[c - grid.stride(a)] += g + error(std::abs(g), 2);
      }
    });
    for (std::size_t r = 0; r < s.receivers.size(); ++r) {
      const wave::Stencil8 st = wave::trilinear(s, s.receivers[r]);
      for (int c = 0; c < 8; ++c) {
        double& at = nu[grid.at(st.i[c], st.j[c], st.k[c])];
        const double term = st.w[c] * data[r * samples + std::size_t(n)];
        at += term + error(std::abs(at) + std::abs(term), 2);
      }
    }
    std::swap(lu, nu);
    std::swap(lp, np);
    std::swap(lf, nf);
  }
  // The engine's image is read out scaled (1 / (D3 q), three roundings).
  if (error.on())
    for (double& x : image) x += error(std::abs(x), 3);
  return image;
}

}  // namespace seis::reference

#include "seis/reference/wave_step.hpp"

#include <algorithm>
#include <cmath>

#include "seis/core/coefficients.hpp"
#include "seis/wave/pml.hpp"

namespace seis::reference {

using wave::Boundary;

WaveReference::WaveReference(const wave::Setup& setup, const std::optional<FloatRounding>& rounding)
    : s_(setup), pad_(setup.radius), rounding_error_(rounding) {
  wave::validate(s_, static_cast<std::size_t>(-1));
  sx_ = s_.nx + 2 * pad_;
  sy_ = s_.ny + 2 * pad_;
  const std::size_t total = std::size_t(sx_) * sy_ * (s_.nz + 2 * pad_);
  u_.assign(total, 0.0);
  u_prev_.assign(total, 0.0);
  phi_.assign(total, 0.0);
  q_.assign(total, 0.0);
  for (int k = 0; k < s_.nz; ++k)
    for (int j = 0; j < s_.ny; ++j)
      for (int i = 0; i < s_.nx; ++i) {
        const double v = s_.velocity[(std::size_t(k) * s_.ny + j) * s_.nx + i];
        q_[at(i, j, k)] = held(v * v * s_.dt * s_.dt);
      }
  const int d = wave::layer_points(s_);
  const double vmax = wave::model_vmax(s_);
  const double scale = wave::damping_scale(s_.dt, vmax, d, s_.h);
  // The kernels' float profiles, widened: the oracle checks the update, not the rounding of eta.
  auto widen = [](const std::vector<float>& f) { return std::vector<double>(f.begin(), f.end()); };
  eta_x_ = widen(wave::damping_profile(s_.nx, d, scale));
  eta_y_ = widen(wave::damping_profile(s_.ny, d, scale));
  eta_z_ = widen(wave::damping_profile(s_.nz, d, scale, wave::top_layer_points(s_)));
  const StencilCoefficients c = make_coefficients(s_.radius, s_.h, s_.h, s_.h);
  for (int m = 0; m <= s_.radius; ++m) w_.push_back(held(c.x[std::size_t(m)]));
  traces_.assign(s_.receivers.size() * std::size_t(s_.steps), 0.0);
  if (wave::variable_density(s_)) {
    for (float rho : s_.density) rho_.push_back(rho);
    for (double w : staggered_first_derivative_weights(s_.radius)) c_.push_back(held(w / s_.h));
  }
}

double WaveReference::u_at(const std::vector<double>& f, int i, int j, int k) const {
  double sign = 1.0;
  if (k < 0 && s_.top == wave::Top::free) k = -k, sign = -1.0;
  if (i < 0 || j < 0 || k < 0 || i >= s_.nx || j >= s_.ny || k >= s_.nz) return 0.0;
  return sign * f[at(i, j, k)];
}

double WaveReference::rho_at(int i, int j, int k) const {
  if (k < 0 && s_.top == wave::Top::free) k = -k;
  i = std::clamp(i, 0, s_.nx - 1), j = std::clamp(j, 0, s_.ny - 1), k = std::clamp(k, 0, s_.nz - 1);
  return rho_[(std::size_t(k) * std::size_t(s_.ny) + std::size_t(j)) * std::size_t(s_.nx) + std::size_t(i)];
}

double WaveReference::density_term(const std::vector<double>& f, int i, int j, int k, double* magnitude) const {
  const int R = s_.radius;
  double sum = 0;
  *magnitude = 0;
  for (int a = 0; a < 3; ++a) {
    const int d[3] = {a == 0, a == 1, a == 2};
    const auto u = [&](int s) { return u_at(f, i + s * d[0], j + s * d[1], k + s * d[2]); };
    const auto rho = [&](int s) { return rho_at(i + s * d[0], j + s * d[1], k + s * d[2]); };
    // The flux at the half point between low and low + 1, and its terms' magnitude.
    const auto flux = [&](int low, double* size) {
      double diff = 0, terms = 0;
      for (int n = 1; n <= R; ++n) {
        diff += c_[std::size_t(n - 1)] * (u(low + n) - u(low - n + 1));
        terms += std::abs(c_[std::size_t(n - 1)]) * (std::abs(u(low + n)) + std::abs(u(low - n + 1)));
      }
      const double half = 2.0 / (rho(low) + rho(low + 1));
      *size = half * terms;
      return half * diff;
    };
    for (int n = 1; n <= R; ++n) {
      double after_size = 0, before_size = 0;
      const double after = flux(n - 1, &after_size), before = flux(-n, &before_size);
      sum += c_[std::size_t(n - 1)] * (after - before);
      *magnitude += std::abs(c_[std::size_t(n - 1)]) * (after_size + before_size);
    }
  }
  const double density = rho_at(i, j, k);
  *magnitude *= density;
  return sum * density;
}

std::size_t WaveReference::at(int i, int j, int k) const {
  return (std::size_t(k + pad_) * sy_ + std::size_t(j + pad_)) * sx_ + std::size_t(i + pad_);
}

double WaveReference::lap(const std::vector<double>& f, int i, int j, int k) const {
  const std::size_t c = at(i, j, k);
  const std::size_t sy = std::size_t(sx_), sz = std::size_t(sx_) * sy_;
  double sum = 3.0 * w_[0] * f[c];
  for (int m = 1; m <= s_.radius; ++m)
    sum += w_[std::size_t(m)] * (f[c - m] + f[c + m] + f[c - m * sy] + f[c + m * sy] + f[c - m * sz] + f[c + m * sz]);
  return sum;
}

double WaveReference::lap_magnitude(const std::vector<double>& f, int i, int j, int k) const {
  const std::size_t c = at(i, j, k);
  const std::size_t sy = std::size_t(sx_), sz = std::size_t(sx_) * sy_;
  double sum = 3.0 * std::abs(w_[0] * f[c]);
  for (int m = 1; m <= s_.radius; ++m)
    sum += std::abs(w_[std::size_t(m)]) * (std::abs(f[c - m]) + std::abs(f[c + m]) + std::abs(f[c - m * sy]) +
                                           std::abs(f[c + m * sy]) + std::abs(f[c - m * sz]) + std::abs(f[c + m * sz]));
  return sum;
}

double WaveReference::held(double value) const { return rounding_error_.on() ? double(float(value)) : value; }

bool WaveReference::in_pml(int i, int j, int k) const {
  const int d = wave::layer_points(s_);
  return i < d || i >= s_.nx - d || j < d || j >= s_.ny - d || k < wave::top_layer_points(s_) || k >= s_.nz - d;
}

double WaveReference::damping(int i, int j, int k) const {
  return eta_x_[std::size_t(i + 1)] + eta_y_[std::size_t(j + 1)] + eta_z_[std::size_t(k + 1)];
}

double WaveReference::gradient_weight(int axis, int index) const {
  const std::vector<double>& eta = axis == 0 ? eta_x_ : axis == 1 ? eta_y_ : eta_z_;
  return (eta[std::size_t(index + 2)] - eta[std::size_t(index)]) / (4.0 * s_.h * s_.h);
}

void WaveReference::add_to_u(const std::vector<double>& padded) {
  for (std::size_t p = 0; p < u_.size(); ++p) u_[p] += padded[p];
}

void WaveReference::advance(int steps) {
  const int last = std::min(s_.steps, step_ + steps);
  for (; step_ < last; ++step_) {
    for (std::size_t r = 0; r < s_.receivers.size(); ++r) {
      const wave::Stencil8 st = wave::trilinear(s_, s_.receivers[r]);
      double sum = 0, magnitude = 0;
      for (int c = 0; c < 8; ++c) {
        const double term = held(st.w[c]) * u_[at(st.i[c], st.j[c], st.k[c])];
        sum += term;
        magnitude += std::abs(term);
      }
      // The recording's own roundings: 8 products and 7 sums.
      traces_[r * std::size_t(s_.steps) + std::size_t(step_)] = sum + rounding_error_(magnitude, 15);
    }
    for (int k = 0; k < s_.nz; ++k)
      for (int j = 0; j < s_.ny; ++j)
        for (int i = 0; i < s_.nx; ++i) {
          const std::size_t c = at(i, j, k);
          // The update's roundings: 6R + 3 in the Laplacian, 2 in the leapfrog (the PML's adds a few, counted there);
          // where the density varies 4R + 2 in each flux and 4R in each axis's divergence, 3 (4R + 2) + 2 in all as
          // the flux errors weigh in through the weights, whose magnitudes sum to about 1.
          double operator_magnitude = 0;
          const double l = rho_.empty() ? lap(u_, i, j, k) : density_term(u_, i, j, k, &operator_magnitude);
          const int operations = rho_.empty() ? 6 * s_.radius + 5 : 3 * (4 * s_.radius + 2) + 2;
          if (rho_.empty() && rounding_error_.on()) operator_magnitude = lap_magnitude(u_, i, j, k);
          const double magnitude =
              rounding_error_.on() ? 2.0 * std::abs(u_[c]) + std::abs(u_prev_[c]) + q_[c] * operator_magnitude : 0.0;
          if (!in_pml(i, j, k)) {
            u_prev_[c] = 2.0 * u_[c] - u_prev_[c] + q_[c] * l + rounding_error_(magnitude, operations);
            continue;
          }
          const double eta = damping(i, j, k);
          u_prev_[c] =
              ((2.0 + 2.0 * eta - eta * eta) * u_[c] - u_prev_[c] + q_[c] * (l + phi_[c])) / (1.0 + 2.0 * eta) +
              rounding_error_(magnitude + q_[c] * std::abs(phi_[c]), operations + 8);
          double gradient = 0, gradient_magnitude = 0;
          const int index[3] = {i, j, k};
          for (int a = 0; a < 3; ++a) {
            const double g = gradient_weight(a, index[a]), after = u_[c + stride(a)], before = u_[c - stride(a)];
            gradient += g * (after - before);
            gradient_magnitude += std::abs(g) * (std::abs(after) + std::abs(before));
          }
          phi_[c] = (phi_[c] - gradient) / (1.0 + eta) +
                    rounding_error_((std::abs(phi_[c]) + gradient_magnitude) / (1.0 + eta), 16);
        }
    const double amplitude = held(wave::wavelet(s_.wavelet, s_.f0, step_ * s_.dt) / (s_.h * s_.h * s_.h));
    for (const wave::Point& p : s_.sources) {
      const wave::Stencil8 st = wave::trilinear(s_, p);
      for (int c = 0; c < 8; ++c) {
        const std::size_t o = at(st.i[c], st.j[c], st.k[c]);
        const double term = held(st.w[c]) * q_[o] * amplitude;
        u_prev_[o] += term + rounding_error_(std::abs(u_prev_[o]) + std::abs(term), 4);
      }
    }
    // A free surface: zero pressure on the top plane, the field mirrored with its sign flipped above it.
    if (s_.top == wave::Top::free)
      for (int j = 0; j < s_.ny; ++j)
        for (int i = 0; i < s_.nx; ++i) {
          u_prev_[at(i, j, 0)] = 0.0;
          for (int m = 1; m <= s_.radius; ++m) u_prev_[at(i, j, -m)] = -u_prev_[at(i, j, m)];
        }
    std::swap(u_, u_prev_);
  }
}

std::vector<double> WaveReference::wavefield() const {
  std::vector<double> out;
  out.reserve(std::size_t(s_.nx) * s_.ny * s_.nz);
  for (int k = 0; k < s_.nz; ++k)
    for (int j = 0; j < s_.ny; ++j)
      for (int i = 0; i < s_.nx; ++i) out.push_back(u_[at(i, j, k)]);
  return out;
}

std::vector<double> WaveReference::wavefield_previous() const {
  std::vector<double> out;
  out.reserve(std::size_t(s_.nx) * s_.ny * s_.nz);
  for (int k = 0; k < s_.nz; ++k)
    for (int j = 0; j < s_.ny; ++j)
      for (int i = 0; i < s_.nx; ++i) out.push_back(u_prev_[at(i, j, k)]);
  return out;
}

double inner_energy(const wave::Setup& s, const std::vector<double>& now, const std::vector<double>& before) {
  const int d = s.boundary == Boundary::pml ? s.ndamp : 0;
  const StencilCoefficients c = make_coefficients(s.radius, s.h, s.h, s.h);
  auto at = [&](int i, int j, int k) { return (std::size_t(k) * s.ny + j) * s.nx + i; };
  auto value = [&](const std::vector<double>& f, int i, int j, int k) {
    return i < 0 || j < 0 || k < 0 || i >= s.nx || j >= s.ny || k >= s.nz ? 0.0 : f[at(i, j, k)];
  };
  double sum = 0;
  for (int k = d; k < s.nz - d; ++k)
    for (int j = d; j < s.ny - d; ++j)
      for (int i = d; i < s.nx - d; ++i) {
        double lap = 3.0 * c.x[0] * before[at(i, j, k)];
        for (int m = 1; m <= s.radius; ++m)
          lap += c.x[std::size_t(m)] *
                 (value(before, i - m, j, k) + value(before, i + m, j, k) + value(before, i, j - m, k) +
                  value(before, i, j + m, k) + value(before, i, j, k - m) + value(before, i, j, k + m));
        const double v = s.velocity[at(i, j, k)];
        const double rate = now[at(i, j, k)] - before[at(i, j, k)];
        sum += rate * rate / (v * v * s.dt * s.dt) - now[at(i, j, k)] * lap;
      }
  return 0.5 * sum * s.h * s.h * s.h;
}

}  // namespace seis::reference

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
          const double l = lap(u_, i, j, k);
          // The update's roundings: 6R + 3 in the Laplacian, 2 in the leapfrog (the PML's adds a few, counted there).
          const int operations = 6 * s_.radius + 5;
          const double magnitude =
              rounding_error_.on() ? 2.0 * std::abs(u_[c]) + std::abs(u_prev_[c]) + q_[c] * lap_magnitude(u_, i, j, k)
                                   : 0.0;
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

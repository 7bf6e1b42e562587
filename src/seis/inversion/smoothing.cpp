#include "seis/inversion/smoothing.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "seis/core/error.hpp"
#include "seis/core/host_parallel.hpp"

namespace seis::inversion {

Smoothing::Smoothing(std::array<int, 3> points, double spacing, double length) : n_(points) {
  require(std::isfinite(length) && length > 0 && spacing > 0, "inversion: the gradient's smoothing length ", length,
          " m must be positive");
  const double sigma = length / spacing;  // points
  reach_ = int(std::ceil(3 * sigma - 1e-9));
  for (int k = 0; k <= reach_; ++k) weights_.push_back(std::exp(-0.5 * k * k / (sigma * sigma)));
  for (int a = 0; a < 3; ++a)
    for (int i = 0; i < n_[a]; ++i) {
      double sum = 0;
      for (int j = std::max(0, i - reach_); j <= std::min(n_[a] - 1, i + reach_); ++j) sum += weights_[std::abs(j - i)];
      row_sums_[a].push_back(sum);
    }
}

template <class Line>
void Smoothing::lines(std::vector<double>& v, int axis, const Line& along) const {
  const std::size_t nx = std::size_t(n_[0]), ny = std::size_t(n_[1]);
  const std::size_t stride = axis == 0 ? 1 : axis == 1 ? nx : nx * ny, count = v.size() / std::size_t(n_[axis]);
  host_parallel_for(
      count,
      [&](std::size_t first, std::size_t last) {
        std::vector<double> in(std::size_t(n_[axis])), out(in.size());
        for (std::size_t line = first; line < last; ++line) {
          // The line's first point: lines along x are (y, z) pairs, along y (x, z), along z (x, y).
          const std::size_t start = axis == 0 ? line * nx : axis == 1 ? (line / nx) * nx * ny + line % nx : line;
          for (std::size_t i = 0; i < in.size(); ++i) in[i] = v[start + i * stride];
          along(axis, in, out);
          for (std::size_t i = 0; i < in.size(); ++i) v[start + i * stride] = out[i];
        }
      },
      std::max<std::size_t>(1, (1 << 16) / std::size_t(n_[axis])));
}

std::vector<double> Smoothing::apply(const std::vector<double>& v) const {
  std::vector<double> out = v;
  for (int a = 0; a < 3; ++a)
    lines(out, a, [&](int axis, const std::vector<double>& in, std::vector<double>& result) {
      const int n = int(in.size());
      for (int i = 0; i < n; ++i) {
        double s = 0;
        for (int j = std::max(0, i - reach_); j <= std::min(n - 1, i + reach_); ++j)
          s += weights_[std::abs(j - i)] * in[j];
        result[i] = s / row_sums_[axis][i];
      }
    });
  return out;
}

std::vector<double> Smoothing::transpose(const std::vector<double>& v) const {
  std::vector<double> out = v;
  for (int a = 2; a >= 0; --a)
    lines(out, a, [&](int axis, const std::vector<double>& in, std::vector<double>& result) {
      const int n = int(in.size());
      for (int j = 0; j < n; ++j) {
        double s = 0;
        for (int i = std::max(0, j - reach_); i <= std::min(n - 1, j + reach_); ++i)
          s += weights_[std::abs(j - i)] * in[i] / row_sums_[axis][i];
        result[j] = s;
      }
    });
  return out;
}

template <class First>
std::vector<double> Smoothing::spread(std::vector<double> values, const First& first) const {
  // A box's extreme is the extreme of its lines' extremes: one pass an axis.
  for (int a = 0; a < 3; ++a)
    lines(values, a, [&](int, const std::vector<double>& in, std::vector<double>& result) {
      const int n = int(in.size());
      for (int i = 0; i < n; ++i)
        result[i] =
            *std::min_element(in.begin() + std::max(0, i - reach_), in.begin() + std::min(n, i + reach_ + 1), first);
    });
  return values;
}

std::vector<double> Smoothing::spread_lower(const std::vector<double>& lower) const {
  return spread(lower, std::greater<double>());
}

std::vector<double> Smoothing::spread_upper(const std::vector<double>& upper) const {
  return spread(upper, std::less<double>());
}

}  // namespace seis::inversion

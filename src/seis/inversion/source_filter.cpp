#include "seis/inversion/source_filter.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

#include "seis/core/error.hpp"
#include "seis/core/host_parallel.hpp"
#include "seis/inversion/trace_convolution.hpp"

extern "C" void dposv_(const char* uplo, const int* n, const int* nrhs, double* a, const int* lda, double* b,
                       const int* ldb, int* info);

namespace seis::inversion {

namespace {

double weight_squared(const std::vector<float>& weights, std::size_t at) {
  return weights.empty() ? 1.0 : double(weights[at]) * double(weights[at]);
}

}  // namespace

double damping_of(const Traces& shape, const float* observed, const std::vector<float>& weights) {
  double energy = 0;
  const std::size_t samples = std::size_t(shape.traces) * std::size_t(shape.samples);
  for (std::size_t p = 0; p < samples; ++p) energy += weight_squared(weights, p) * double(observed[p]) * observed[p];
  energy *= shape.dt;
  return energy > 0 ? 1e-3 * energy : 1.0;
}

SourceFilter::SourceFilter(const Traces& shape, const float* modelled, const float* observed,
                           const std::vector<float>& weights, int half, double damping) {
  require(half >= 0 && half < shape.samples, "a source filter of ", half, " samples each side: it must be in 0..",
          shape.samples - 1, " (the traces' samples less one)");
  require(damping > 0, "the source filter's damping ", damping, " must be > 0");
  const int n = 2 * half + 1, samples = shape.samples;
  // A's upper triangle (column-major, as LAPACK reads it) and b: row j of each by one thread, in a fixed order.
  std::vector<double> a(std::size_t(n) * std::size_t(n), 0.0), b(std::size_t(n), 0.0);
  host_parallel_for(
      std::size_t(n),
      [&](std::size_t begin, std::size_t end) {
        for (std::size_t row = begin; row < end; ++row) {
          const int j = int(row) - half;
          for (int r = 0; r < shape.traces; ++r) {
            const std::size_t first = std::size_t(r) * std::size_t(samples);
            const float* d = modelled + first;
            const float* o = observed + first;
            for (int t = std::max(0, j); t < std::min(samples, samples + j); ++t)
              b[row] += weight_squared(weights, first + std::size_t(t)) * double(o[t]) * d[t - j];
            for (int k = j; k <= half; ++k) {
              double sum = 0;
              for (int t = std::max(0, k); t < std::min(samples, samples + j); ++t)
                sum += weight_squared(weights, first + std::size_t(t)) * double(d[t - j]) * d[t - k];
              a[std::size_t(k + half) * std::size_t(n) + row] += sum;
            }
          }
          b[row] *= shape.dt;
          for (int k = j; k <= half; ++k) a[std::size_t(k + half) * std::size_t(n) + row] *= shape.dt;
          a[row * std::size_t(n) + row] += damping;
        }
      },
      1);
  const char upper = 'U';
  const int one = 1;
  int info = 0;
  dposv_(&upper, &n, &one, a.data(), &n, b.data(), &n, &info);
  require(info == 0, "the source filter's normal equations could not be solved (LAPACK dposv info ", info, ")");
  taps_ = std::move(b);
  for (double f : taps_) penalty_ += f * f;
  penalty_ *= 0.5 * damping;
}

void SourceFilter::apply(const Traces& shape, const float* in, float* out) const {
  convolve_traces(shape, taps_, -1, in, out);
}

void SourceFilter::apply_transpose(const Traces& shape, const float* in, float* out) const {
  convolve_traces(shape, taps_, 1, in, out);
}

}  // namespace seis::inversion

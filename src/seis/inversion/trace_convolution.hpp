#pragma once
// Traces convolved with a short filter, each trace continued by zeros beyond its ends: out(t) = sum_k f[k] in(t +
// sign k), k = -half .. half (f holds 2 half + 1 taps). sign -1 applies the filter, sign +1 its transpose (the
// correlation); a symmetric filter is its own transpose. Sums in double whatever T is, k rising. Host-only.
#include <cstddef>
#include <vector>

#include "seis/core/host_parallel.hpp"
#include "seis/inversion/misfit.hpp"

namespace seis::inversion {

template <class T>
void convolve_traces(const Traces& shape, const std::vector<double>& f, int sign, const T* in, T* out) {
  const int half = int(f.size() / 2), samples = shape.samples;
  host_parallel_for(
      std::size_t(shape.traces),
      [&](std::size_t first, std::size_t last) {
        for (std::size_t trace = first; trace < last; ++trace) {
          const T* x = in + trace * std::size_t(samples);
          T* y = out + trace * std::size_t(samples);
          for (int t = 0; t < samples; ++t) {
            double sum = 0;
            for (int k = -half; k <= half; ++k) {
              const int s = t + sign * k;
              if (s >= 0 && s < samples) sum += f[std::size_t(k + half)] * double(x[s]);
            }
            y[t] = T(sum);
          }
        }
      },
      1);
}

}  // namespace seis::inversion

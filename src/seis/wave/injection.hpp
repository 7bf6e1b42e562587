#pragma once
// The sources of a shot on one part of the grid: where and how much each adds to u_{n+1} after the step's update
// (q times its weight times its amplitude at step n), by point for the one-step kernels and by column for the 3.5D
// shapes' fused two steps.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <map>
#include <utility>
#include <vector>

#include "seis/core/device_copy.hpp"
#include "seis/wave/setup.hpp"
#include "seis/wave/shape_kernels.hpp"
#include "seis/wave/subdomain.hpp"

namespace seis::wave {

template <class ExecSpace>
class Injection {
 public:
  using Memory = typename ExecSpace::memory_space;

  // The setup's sources, each firing its own row of `traces` ([source][sample], setup.steps samples each), or all
  // the setup's wavelet where null. The discrete delta of a point source is 1/h^3 at a grid point; off-grid
  // positions spread it with the trilinear weights. Weights of points shared by sources of one trace are summed
  // here, so the injection needs no atomics and every run adds in the same order (restarts and decompositions are
  // bitwise). A part injects at the points it holds.
  void place(const Setup& s, const Subdomain& part, const FieldLayout& layout, const std::vector<float>* traces) {
    const auto local_offset = [&](int i, int j, int k) {
      return layout.offset(i - part.offset[0], j - part.offset[1], k - part.offset[2]);
    };
    std::map<index_t, std::map<int, double>> points;  // offset -> owner -> weight
    // The wavelet's sums keyed by (column x + nx y, z): the 3.5D shapes find the sources by column.
    std::map<std::pair<int, int>, double> by_column;
    for (std::size_t n = 0; n < s.sources.size(); ++n) {
      const Stencil8 st = trilinear(s, s.sources[n]);
      const int owner = traces != nullptr ? int(n) : 0;
      for (int c = 0; c < 8; ++c)
        if (st.w[c] != 0 && part.owns(st.i[c], st.j[c], st.k[c])) {
          points[local_offset(st.i[c], st.j[c], st.k[c])][owner] += st.w[c];
          by_column[{(st.j[c] - part.offset[1]) * layout.nx + st.i[c] - part.offset[0], st.k[c] - part.offset[2]}] +=
              st.w[c];
        }
    }
    std::vector<index_t> offsets;
    std::vector<int> first{0}, owners;
    std::vector<float> weights;
    const double inv_h3 = 1.0 / (s.h * s.h * s.h);
    for (const auto& [offset, entries] : points) {
      offsets.push_back(offset);
      for (const auto& [owner, weight] : entries) {
        owners.push_back(owner);
        weights.push_back(static_cast<float>(weight * inv_h3));
      }
      first.push_back(int(owners.size()));
    }
    count_ = static_cast<int>(offsets.size());
    offset_ = to_device<Memory>("seis::wave::source_offset", offsets);
    first_ = to_device<Memory>("seis::wave::source_first", first);
    owner_ = to_device<Memory>("seis::wave::source_owner", owners);
    weight_ = to_device<Memory>("seis::wave::source_weight", weights);
    std::vector<float> amplitude(std::size_t(std::max(s.steps, 1)));
    if (traces != nullptr) {
      amplitude = *traces;
    } else {
      for (int n = 0; n < s.steps; ++n)
        amplitude[std::size_t(n)] = static_cast<float>(wavelet(s.wavelet, s.f0, n * s.dt));
    }
    steps_ = std::size_t(s.steps);
    amplitude_ = to_device<Memory>("seis::wave::amplitude", amplitude);
    if (steps_per_launch(s.shape) == 2) {
      amplitude_host_ = amplitude;
      std::vector<int> column_first(std::size_t(layout.nx) * layout.ny, -1), column, z;
      std::vector<float> weight;
      for (const auto& [place, w] : by_column) {
        if (column_first[std::size_t(place.first)] < 0) column_first[std::size_t(place.first)] = int(column.size());
        column.push_back(place.first);
        z.push_back(place.second);
        weight.push_back(static_cast<float>(w * inv_h3));
      }
      column_first_ = to_device<Memory>("seis::wave::column_first", column_first);
      column_ = to_device<Memory>("seis::wave::column_source_column", column);
      column_z_ = to_device<Memory>("seis::wave::column_source_z", z);
      column_weight_ = to_device<Memory>("seis::wave::column_source_weight", weight);
      columns_ = int(column.size());
    }
  }

  // next += the sources of step n, q (and `by`, where given) scaling each point.
  void inject(const ExecSpace& exec, const float* q, float* next, int n, const float* by = nullptr) const {
    const auto step = std::size_t(n), steps = steps_;
    const auto offset = offset_;
    const auto first = first_;
    const auto owner = owner_;
    const auto weight = weight_;
    const auto amplitude = amplitude_;
    Kokkos::parallel_for(
        "seis::wave::inject", Kokkos::RangePolicy<ExecSpace>(exec, 0, count_), KOKKOS_LAMBDA(const int p) {
          const index_t o = offset(p);
          float sum = 0.0f;
          const float scale = by != nullptr ? by[o] : 1.0f;
          for (int e = first(p); e < first(p + 1); ++e)
            sum += weight(e) * q[o] * scale * amplitude(std::size_t(owner(e)) * steps + step);
          next[o] += sum;
        });
  }

  // The points inject() adds to, their offsets in the layout.
  Kokkos::View<const index_t*, Memory> offsets() const { return offset_; }

  // Each point's weights times field[its offset] (a field in the layout, on the device): after place, for the
  // one-step kernels.
  void scale_by(const float* field) {
    const auto offset = offset_;
    const auto first = first_;
    const auto weight = weight_;
    Kokkos::parallel_for(
        "seis::wave::scale_injection", Kokkos::RangePolicy<ExecSpace>(0, count_), KOKKOS_LAMBDA(const int p) {
          for (int e = first(p); e < first(p + 1); ++e) weight(e) *= field[offset(p)];
        });
    Kokkos::fence();
  }

  // The sources by column and the wavelet's steps n and n + 1, for the 3.5D shapes (TwoSteps).
  void two_steps(TwoSteps& two, int n) const {
    two.sources = {column_first_.data(), column_.data(), column_z_.data(), column_weight_.data(), columns_};
    two.amplitude_1 = amplitude_host_[std::size_t(n)];
    two.amplitude_2 = amplitude_host_[std::size_t(n + 1)];
  }

 private:
  // Point p adds, for each entry e in [first(p), first(p + 1)), weight(e) q times amplitude(owner(e) x steps + n):
  // one owner (the wavelet) for a shot, one per trace for injected data.
  Kokkos::View<index_t*, Memory> offset_;
  Kokkos::View<int*, Memory> first_, owner_;
  Kokkos::View<float*, Memory> weight_, amplitude_;
  int count_ = 0;
  std::size_t steps_ = 0;
  // The 3.5D shapes: the sources by column, the wavelet on the host.
  Kokkos::View<int*, Memory> column_first_, column_, column_z_;
  Kokkos::View<float*, Memory> column_weight_;
  int columns_ = 0;
  std::vector<float> amplitude_host_;
};

}  // namespace seis::wave

#pragma once
// The receivers of a shot on one part of the grid: each records its eight trilinear corners' weighted values of u
// at every step, a corner by the part that holds it ([receiver][corner][sample], zero at corners another part
// holds), so that the traces of a decomposed run sum to the undecomposed run's (sum_corners).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <vector>

#include "seis/core/device_copy.hpp"
#include "seis/core/layout.hpp"
#include "seis/wave/setup.hpp"
#include "seis/wave/subdomain.hpp"

namespace seis::wave {

template <class ExecSpace>
class Recording {
 public:
  using Memory = typename ExecSpace::memory_space;
  using Floats = Kokkos::View<float*, Memory>;

  void place(const Setup& s, const Subdomain& part, const FieldLayout& layout) {
    std::vector<index_t> offsets;
    std::vector<float> weights;
    for (const Point& p : s.receivers) {
      const Stencil8 st = trilinear(s, p);
      for (int c = 0; c < 8; ++c) {
        const bool held = part.owns(st.i[c], st.j[c], st.k[c]);
        offsets.push_back(
            held ? layout.offset(st.i[c] - part.offset[0], st.j[c] - part.offset[1], st.k[c] - part.offset[2]) : -1);
        weights.push_back(static_cast<float>(st.w[c]));
      }
    }
    corners_ = 8 * int(s.receivers.size());
    samples_ = s.steps;
    offset_ = to_device<Memory>("seis::wave::receiver_offset", offsets);
    weight_ = to_device<Memory>("seis::wave::receiver_weight", weights);
    traces_ = Floats("seis::wave::traces", std::max<std::size_t>(count(), 1));
  }

  // The corners' values at step n from u.
  void record(const ExecSpace& exec, const float* u, int n) const {
    const auto traces = traces_;
    const auto offset = offset_;
    const auto weight = weight_;
    const int samples = samples_;
    Kokkos::parallel_for(
        "seis::wave::record", Kokkos::RangePolicy<ExecSpace>(exec, 0, corners_), KOKKOS_LAMBDA(const int c) {
          traces(std::size_t(c) * samples + n) = offset(c) >= 0 ? weight(c) * u[offset(c)] : 0.0f;
        });
  }

  // The corner values' count (receivers x 8 x steps) and their device array (at least one float).
  std::size_t count() const { return std::size_t(corners_) * std::size_t(samples_); }
  const Floats& traces() const { return traces_; }

 private:
  Kokkos::View<index_t*, Memory> offset_;
  Floats weight_, traces_;
  int corners_ = 0, samples_ = 0;
};

}  // namespace seis::wave

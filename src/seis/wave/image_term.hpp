#pragma once
// What a step's kernels can carry besides the wave update: nothing (NoExtra), a migration's imaging condition
// (ImageTerm) or the step's Born weight (WeightTerm), fused into the tile engine's epilogue (ImagingUpdate,
// WeightingUpdate; update.hpp) so that no pass reads the fields again.
#include <type_traits>

#include "seis/core/layout.hpp"
#include "seis/core/memory_ops.hpp"

namespace seis::wave {

// The plain step.
struct NoExtra {};

// Whether a step's kernels carry a term besides the update: they hold more values, and take other tiles
// (propagator.hpp's launch_options).
template <class Extra>
inline constexpr bool carries_extra = !std::is_same_v<Extra, NoExtra>;

// A migration's imaging condition, carried by a step (StepTerm::carried): image += weight u and squares +=
// weight^2 at the points the step updates, u the field it steps from, which the step reads anyway. Without squares
// (null: an inversion's gradient, which does not want them) the image alone, 8 bytes a point fewer.
struct ImageTerm {
  const float* weight = nullptr;
  float* image = nullptr;
  float* squares = nullptr;

  // The lanes [first, last) of the vector at offset o, u its values.
  template <int VEC>
  KOKKOS_FORCEINLINE_FUNCTION void add(index_t o, const Pack<VEC>& u, int first, int last) const {
    if (first == 0 && last == VEC) {
      const Pack<VEC> w = load_pack<VEC>(weight + o);
      Pack<VEC> sum = load_pack<VEC>(image + o);
      for (int l = 0; l < VEC; ++l) sum.lane[l] += w.lane[l] * u.lane[l];
      store_pack(image + o, sum);
      if (squares == nullptr) return;
      Pack<VEC> square = load_pack<VEC>(squares + o);
      for (int l = 0; l < VEC; ++l) square.lane[l] += w.lane[l] * w.lane[l];
      store_pack(squares + o, square);
    } else {
      for (int l = 0; l < VEC; ++l)
        if (l >= first && l < last) add(o + l, u.lane[l]);
    }
  }
  KOKKOS_FORCEINLINE_FUNCTION void add(index_t o, float u) const {
    const float w = weight[o];
    image[o] += w * u;
    if (squares != nullptr) squares[o] += w * w;
  }
  // The host engine's n points of a row from offset o, u at c.
  void add_row(index_t o, const float* c, int n) const {
    const float* w = weight + o;
    float* sum = image + o;
#if defined(_OPENMP)
#pragma omp simd
#endif
    for (int i = 0; i < n; ++i) sum[i] += w[i] * c[i];
    if (squares == nullptr) return;
    float* square = squares + o;
#if defined(_OPENMP)
#pragma omp simd
#endif
    for (int i = 0; i < n; ++i) square[i] += w[i] * w[i];
  }
};

// The Born weight of a step at a point, (u_{n+1} - D1 u_n + D2 u_{n-1}) / q with D2 = 1 / (1 + 2 e) and D1 =
// (2 + 2 e - e^2) D2, e the point's damping eta_x + eta_y + eta_z (imaging/step_terms.hpp): one expression for the
// step's epilogue and the imaging passes, so both round alike.
KOKKOS_FORCEINLINE_FUNCTION float born_weight(float e, float q, float next, float now, float before) {
  const float d2 = 1.0f / (1.0f + 2.0f * e);
  return (next - (2.0f + 2.0f * e - e * e) * d2 * now + d2 * before) / q;
}
// born_weight where e = 0 (the inner region): D2 = 1 and D1 = 2 exactly, and 2 u_n is exact, so these are its bits
// however either is contracted, without the damping's loads and division.
KOKKOS_FORCEINLINE_FUNCTION float inner_born_weight(float q, float next, float now, float before) {
  return (next - 2.0f * now + before) / q;
}

// The step's Born weight, carried by its kernels (StepTerm::carried_weight): weight = born_weight of u_{n+1} as the
// update leaves it, before the sources add to some points (the term takes those again: StepFields::injected). The
// exact adjoint's source side: without it a pass copies u_{n-1} before the step (8 bytes a point) and another reads
// three fields and q and writes the weight (20), where the epilogue writes 4.
struct WeightTerm {
  float* weight = nullptr;
};

}  // namespace seis::wave

#pragma once
// The host shape of every tile-engine variant. A GPU tile (one thread per vector column, a register window, a
// staged plane, barriers) makes no sense for an OS thread, so on host backends the engine's launcher runs this
// instead; only the variant's operator and epilogue carry over, not where a GPU would keep each axis' neighbours.
// A work item is a block of rows (y) over a run of planes (z): it walks the planes and, in each, its rows, each
// row in passes (HostRows::segment) of packed FMAs. The 2R + 1 planes of a block that the z taps touch stay in the
// thread's share of the last-level cache (host_blocks keeps them under host_block_bytes), so each input float comes
// from memory about once, like the GPU's 2.5D streaming.
#include <unistd.h>

#include <algorithm>
#include <utility>

#include "seis/core/coefficients.hpp"
#include "seis/core/memory_ops.hpp"
#include "seis/kernels/launch_options.hpp"
#include "seis/kernels/team_launch.hpp"

namespace seis {

// The passes' unit: 16 floats, one AVX-512 register (two AVX2 ones).
inline constexpr int host_pass_width = 16;
// Floats of a row per pass: the partial sums (2 KiB) stay in L1 between the passes.
inline constexpr int host_span = 512;

// The bytes a work item's z window (2R + 1 planes of its rows) may take: half of the last-level cache's share per
// thread (the rest for the output and the other threads' streams); 1 MiB where the host does not say. Whole planes
// stream best (the prefetchers follow long runs: 24-row blocks sized for L2 ran at 0.82-0.95 GPts/s against 1.47
// for whole planes at 256^3, R = 4, perf/NOTES.md 34); blocks of rows only where planes outgrow the share.
inline std::size_t host_block_bytes(int concurrency) {
  static const long last_level = [] {
    const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return l3 > 0 ? l3 : l2;
  }();
  if (last_level <= 0) return std::size_t(1) << 20;
  return static_cast<std::size_t>(last_level) / std::size_t(2 * std::max(concurrency, 1));
}

struct HostBlocks {
  int rows, planes, blocks_y, blocks_z;
  int items() const { return blocks_y * blocks_z; }
};

// Rows per block from the cache budget (or the options' tile_y), planes per item (or the options' window) so that
// every thread gets one run of planes per block: each run first reads the 2R planes before it, which 16-plane runs
// at 256^3 paid for with half again the input traffic.
inline HostBlocks host_blocks(const FieldLayout& L, const Box& box, int radius, const LaunchOptions& o,
                              int concurrency) {
  const int ny = std::max(box.y1 - box.y0, 1), nz = std::max(box.z1 - box.z0, 1);
  const std::size_t row_bytes = std::size_t(L.ldx) * sizeof(float) * std::size_t(2 * radius + 1);
  int rows =
      o.tile_y > 0 ? o.tile_y : static_cast<int>(std::max<std::size_t>(host_block_bytes(concurrency) / row_bytes, 1));
  rows = std::min(rows, ny);
  const int blocks_y = (ny + rows - 1) / rows;
  int planes = o.window;
  if (planes <= 0) {
    const int wanted = std::max(concurrency / blocks_y, 1);
    planes = (nz + wanted - 1) / wanted;
  }
  planes = std::min(planes, nz);
  return {rows, planes, blocks_y, (nz + planes - 1) / planes};
}

namespace detail {
// The x pass of a row segment: acc[i] = centre * c[i] + sum of w[m] (c[i - m] + c[i + m]) for n floats (a multiple
// of host_pass_width; c may be unaligned). With GCC or Clang on the host, three vector loads per 16 floats and the
// +-m neighbours shuffled out of them (valignd, vpermt2ps on AVX-512) instead of 2R unaligned loads, half of which
// split cache lines; elsewhere a loop the compiler vectorises.
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__) && !defined(__HIPCC__)
// may_alias: the vectors read and write float arrays (as the compilers' own unaligned __m512_u does).
typedef float HostVector __attribute__((vector_size(4 * host_pass_width), aligned(4), __may_alias__));
template <int S>
inline HostVector host_shifted(HostVector a, HostVector b) {  // floats S .. S + 15 of a followed by b
#if defined(__clang__)
  return __builtin_shufflevector(a, b, S, S + 1, S + 2, S + 3, S + 4, S + 5, S + 6, S + 7, S + 8, S + 9, S + 10, S + 11,
                                 S + 12, S + 13, S + 14, S + 15);
#else
  typedef int Index __attribute__((vector_size(4 * host_pass_width)));
  return __builtin_shuffle(a, b,
                           Index{S, S + 1, S + 2, S + 3, S + 4, S + 5, S + 6, S + 7, S + 8, S + 9, S + 10, S + 11,
                                 S + 12, S + 13, S + 14, S + 15});
#endif
}
template <int R, int... M>
inline HostVector host_x_taps(HostVector before, HostVector here, HostVector after, const float (&w)[R + 1],
                              std::integer_sequence<int, M...>) {
  HostVector sum = {};
  ((sum += w[M + 1] * (host_shifted<host_pass_width - M - 1>(before, here) + host_shifted<M + 1>(here, after))), ...);
  return sum;
}
// The y taps m = 1..Y of the 16 floats at c: the rows above and below as unaligned vector loads.
template <int R, int... M>
inline HostVector host_y_taps(const float* c, std::ptrdiff_t s, const float (&w)[R + 1],
                              std::integer_sequence<int, M...>) {
  HostVector sum = {};
  ((sum += w[M + 1] * (*reinterpret_cast<const HostVector*>(c - (M + 1) * s) +
                       *reinterpret_cast<const HostVector*>(c + (M + 1) * s))),
   ...);
  return sum;
}
// With Y > 0 the pass adds the y taps m = 1..Y too (wy, row pitch s): one pass less over the partial sums.
template <int R, int Y>
inline void host_x_pass(const float* c, float* acc, int n, float centre, const float (&w)[R + 1],
                        const float (&wy)[R + 1], std::ptrdiff_t s) {
  static_assert(R < host_pass_width, "the x neighbours must lie in the adjacent vectors");
  HostVector before = *reinterpret_cast<const HostVector*>(c - host_pass_width);
  HostVector here = *reinterpret_cast<const HostVector*>(c);
  for (int i = 0; i < n; i += host_pass_width) {
    const HostVector after = *reinterpret_cast<const HostVector*>(c + i + host_pass_width);
    HostVector sum = centre * here + host_x_taps<R>(before, here, after, w, std::make_integer_sequence<int, R>{});
    if constexpr (Y > 0) sum += host_y_taps<R>(c + i, s, wy, std::make_integer_sequence<int, Y>{});
    *reinterpret_cast<HostVector*>(acc + i) = sum;
    before = here;
    here = after;
  }
}
#else
template <int R, int Y>
inline void host_x_pass(const float* c, float* acc, int n, float centre, const float (&w)[R + 1],
                        const float (&wy)[R + 1], std::ptrdiff_t s) {
  for (int i = 0; i < n; ++i) {
    float a = centre * c[i];
    for (int m = 1; m <= R; ++m) a += w[m] * (c[i - m] + c[i + m]);
    for (int m = 1; m <= Y; ++m) a += wy[m] * (c[i - m * s] + c[i + m * s]);
    acc[i] = a;
  }
}
#endif
}  // namespace detail

template <int R, Operator Op, class Epilogue>
struct HostRows {
  static constexpr int V = host_pass_width;

  const float* in;
  FieldLayout L;
  DeviceWeights<R> w;
  Box box;
  HostBlocks blocks;
  Epilogue epilogue;

  void operator()(int item) const {
    const int by = item % blocks.blocks_y, bz = item / blocks.blocks_y;
    const int y_begin = box.y0 + by * blocks.rows, y_end = std::min(y_begin + blocks.rows, box.y1);
    const int z_begin = box.z0 + bz * blocks.planes, z_end = std::min(z_begin + blocks.planes, box.z1);
    // Passes cover whole vectors of V floats from a multiple of V and read the vector before and after each run:
    // before x = 0 lies the row's lead (>= V floats in host builds), past nx its padding and the next row's lead
    // (never past the allocation: halo rows follow every interior row).
    const int x_head = box.x0 / V * V, x_end = (box.x1 + V - 1) / V * V;
    for (int z = z_begin; z < z_end; ++z)
      for (int y = y_begin; y < y_end; ++y)
        for (int x = x_head; x < x_end; x += host_span) segment(x, std::min(host_span, x_end - x), y, z);
    nontemporal_fence();
  }

  // n floats of row (y, z) from x: the operator in passes (centre, x and y, then z in groups of four tap pairs)
  // into partial sums that stay in L1, then the epilogue over the row's points in the box (its host_row: loops
  // over whole rows that the compiler vectorises, where the GPU's per-vector epilogue, run on 8-lane packs here,
  // assembled its neighbour packs lane by lane, perf/NOTES.md 37). One pass over all 6R + 1 taps needs a
  // pointer per tap row, more than x86-64's 16 registers: GCC spilled them and reloaded one per tap.
  void segment(int x, int n, int y, int z) const {
    alignas(64) float acc[host_span];
    const float* c = in + L.offset(x, y, z);
    epilogue.prefetch_row(L, x, y, z, n);
    // The y taps up to 4 join the x pass (9 row pointers in all); further ones take a pass of their own.
    constexpr int joined = uses_x(Op) && uses_y(Op) ? (R < 4 ? R : 4) : 0;
    if constexpr (uses_x(Op)) {
      detail::host_x_pass<R, joined>(c, acc, n, w.center, w.x, w.y, L.ldx);
    } else {
      for (int i = 0; i < n; ++i) acc[i] = w.center * c[i];
    }
    if constexpr (uses_y(Op)) axis<joined + 1>(acc, c, n, L.ldx, w.y);
    if constexpr (uses_z(Op)) {
      // The row R + 1 planes on is this row's next new input: ask for it now, a plane's work ahead.
      for (int i = 0; i < n; i += V) prefetch_l2(c + std::ptrdiff_t(R + 1) * L.plane + i);
      axis(acc, c, n, L.plane, w.z);
    }
    const int first = std::max(box.x0, x), last = std::min(box.x1, x + n);
    if (first < last) epilogue.host_row(L, first, last, y, z, c + (first - x), acc + (first - x));
  }

  // acc[i] += the taps m = From..R along the axis of stride s, four pairs (eight row pointers) per pass.
  template <int From = 1>
  static void axis(float* acc, const float* c, int n, std::ptrdiff_t s, const float (&wa)[R + 1]) {
    if constexpr (From <= R) {
      axis_pass<From, (From + 3 < R ? From + 3 : R)>(acc, c, n, s, wa);
      axis<From + 4>(acc, c, n, s, wa);
    }
  }
  template <int M0, int M1>
  static void axis_pass(float* acc, const float* c, int n, std::ptrdiff_t s, const float (&wa)[R + 1]) {
    const float* below[M1 - M0 + 1];
    const float* above[M1 - M0 + 1];
    for (int m = M0; m <= M1; ++m) {
      below[m - M0] = c - m * s;
      above[m - M0] = c + m * s;
    }
#if defined(_OPENMP)
#pragma omp simd aligned(acc : 64)
#endif
    for (int i = 0; i < n; ++i) {
      float a = acc[i];
      for (int m = M0; m <= M1; ++m) a += wa[m] * (below[m - M0][i] + above[m - M0][i]);
      acc[i] = a;
    }
  }
};

}  // namespace seis

#pragma once
// The host shape of every tile-engine variant. A GPU tile (one thread per vector column, a register window, a
// staged plane, barriers) makes no sense for an OS thread, so on host backends the engine's launcher runs this
// instead; only the variant's operator and epilogue carry over, not where a GPU would keep each axis' neighbours.
// A work item is a block of rows (y) over a run of planes (z): it walks the planes two at a time and, in each pair,
// its rows, each row of both planes in one pass (HostRows::segment) of packed FMAs. The 2R + 1 planes of a block
// that the z taps touch stay in the core's L2 (host_blocks keeps them under host_block_bytes), so each input float
// comes from memory about once, like the GPU's 2.5D streaming.
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <type_traits>
#include <utility>

#include "seis/core/coefficients.hpp"
#include "seis/core/memory_ops.hpp"
#include "seis/kernels/launch_options.hpp"
#include "seis/kernels/team_launch.hpp"

namespace seis {

// The passes' unit: one vector register, 16 floats with AVX-512, 8 elsewhere. 16-float vectors on AVX2 took two
// registers each, spilled the two-plane pass and ran the fused kernel below the plain loop (perf/NOTES.md 63, 64).
#if defined(__AVX512F__)
inline constexpr int host_pass_width = 16;
#else
inline constexpr int host_pass_width = 8;
#endif
// Floats per 64-byte cache line: the unit of the prefetches.
inline constexpr int host_line = 16;
// Floats of a row per pass: the operator's values (2 KiB a row) stay in L1 for the epilogue.
inline constexpr int host_span = 512;

// The bytes a work item's z window (2R + 2 planes of its rows with their y halo: the planes the z taps touch and the
// one prefetched ahead) may take: half of the core's L2 (the rest for the epilogue's streams and the output); 1 MiB
// where the host does not say. Blocks that keep the window in L2 ran the fused kernel 2.2 x faster than whole
// planes on a 2-core Xeon whose planes' window fell to a far last-level cache (256^3, R = 4, perf/NOTES.md 63).
inline std::size_t host_block_bytes() {
  static const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  return l2 > 0 ? static_cast<std::size_t>(l2) / 2 : std::size_t(1) << 20;
}

// Whether the wave's epilogue should also prefetch the streams of rows it updates from a pass's registers. The two
// CI-class VMs measured disagree: on an AMD EPYC the step ran 20% faster with those prefetches (unified 16.2-16.4
// -> 12.9-13.8 ms at 256^3), on an Intel Xeon the inner step 20% slower (11.5-12.0 -> 14.0-14.7 ms), its hardware
// prefetchers doing better alone (perf/NOTES.md 64, 70). Keyed by the CPU's vendor.
inline bool host_prefetch_every_row() {
  static const bool amd = [] {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line))
      if (line.rfind("vendor_id", 0) == 0) return line.find("AuthenticAMD") != std::string::npos;
    return false;
  }();
  return amd;
}

struct HostBlocks {
  int rows, planes, blocks_y, blocks_z;
  int items() const { return blocks_y * blocks_z; }
};

// Rows per block from the cache budget (or the options' tile_y), planes per item (or the options' window), and as
// many items as make every thread's share equal: blocks of a column rounded up to a multiple of the threads, or to
// a divisor of them with the planes split into runs for the rest (each run first reads the 2R planes before it).
// Three blocks on two threads ran the fused kernel at 2.2 GPts/s against 3.4 for four (256^3, perf/NOTES.md 63).
inline HostBlocks host_blocks(const FieldLayout& L, const Box& box, int radius, const LaunchOptions& o,
                              int concurrency) {
  const int ny = std::max(box.y1 - box.y0, 1), nz = std::max(box.z1 - box.z0, 1);
  const int threads = std::max(concurrency, 1);
  const std::size_t row_bytes = std::size_t(L.ldx) * sizeof(float) * std::size_t(2 * radius + 2);
  const int budget = static_cast<int>(std::min<std::size_t>(host_block_bytes() / row_bytes, 1 << 20));
  int rows = std::min(o.tile_y > 0 ? o.tile_y : std::max(budget - 2 * radius, 2), ny);
  int blocks_y = (ny + rows - 1) / rows;
  int runs = 1;
  if (o.tile_y <= 0) {
    if (blocks_y >= threads) {
      blocks_y = (blocks_y + threads - 1) / threads * threads;
    } else {
      while (threads % blocks_y != 0) ++blocks_y;
      runs = threads / blocks_y;
    }
    blocks_y = std::min(blocks_y, ny);
    rows = (ny + blocks_y - 1) / blocks_y;
    blocks_y = (ny + rows - 1) / rows;
  } else if (blocks_y < threads) {
    runs = (threads + blocks_y - 1) / blocks_y;
  }
  int planes = o.window > 0 ? o.window : (nz + runs - 1) / runs;
  planes = std::min(planes, nz);
  return {rows, planes, blocks_y, (nz + planes - 1) / planes};
}

namespace detail {
// One pass of the operator over a row of n floats in adjacent planes from c (n a multiple of host_pass_width; c may
// be unaligned): every tap in registers, no partial sums in memory. With GCC or Clang on the host, x comes from
// three vector loads per vector with the +-m neighbours shuffled out of them (valignd on AVX-512) instead of 2R
// unaligned loads, half of which split cache lines; elsewhere a loop the compiler vectorises. The row that the
// next pass reads first (NZ planes past the newest plane this one reads) is prefetched into L2 as the pass goes.
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__) && !defined(__HIPCC__)
// Epilogues define their vector members (host_direct, host_vector) only where the passes have vectors to give.
#define SEIS_HOST_VECTORS 1
// may_alias: the vectors read and write float arrays (as the compilers' own unaligned __m512_u does).
typedef float HostVector __attribute__((vector_size(4 * host_pass_width), aligned(4), __may_alias__));
template <int S, int... L>
inline HostVector host_shuffled(HostVector a, HostVector b, std::integer_sequence<int, L...>) {
#if defined(__clang__)
  return __builtin_shufflevector(a, b, (S + L)...);
#else
  typedef int Index __attribute__((vector_size(4 * host_pass_width)));
  return __builtin_shuffle(a, b, Index{(S + L)...});
#endif
}
template <int S>
inline HostVector host_shifted(HostVector a, HostVector b) {  // floats S .. S + V - 1 of a followed by b
  static_assert(S >= 0 && S <= host_pass_width);
  if constexpr (S == 0) {
    return a;
  } else if constexpr (S == host_pass_width) {
    return b;
  } else {
#if defined(__AVX512F__)
    // One valignd; GCC turns the generic shuffle into vpermt2ps plus a register copy. (The maskz form: GCC 12
    // warns that the plain one's undefined pass-through may be used uninitialized.)
    return reinterpret_cast<HostVector>(
        _mm512_maskz_alignr_epi32(0xffff, reinterpret_cast<__m512i>(b), reinterpret_cast<__m512i>(a), S));
#else
    return host_shuffled<S>(a, b, std::make_integer_sequence<int, host_pass_width>{});
#endif
  }
}
// a * b + c rounded once, as fmaf does lane by lane. Every tap is one explicit FMA: left to contraction, GCC fused
// different products in the one- and two-plane passes, and a decomposed run must match the whole one bitwise.
inline HostVector host_fma(HostVector a, HostVector b, HostVector c) {
#if defined(__AVX512F__)
  return reinterpret_cast<HostVector>(
      _mm512_fmadd_ps(reinterpret_cast<__m512>(a), reinterpret_cast<__m512>(b), reinterpret_cast<__m512>(c)));
#elif defined(__FMA__)
  return reinterpret_cast<HostVector>(
      _mm256_fmadd_ps(reinterpret_cast<__m256>(a), reinterpret_cast<__m256>(b), reinterpret_cast<__m256>(c)));
#else
  HostVector r;
  for (int l = 0; l < host_pass_width; ++l) r[l] = __builtin_fmaf(a[l], b[l], c[l]);
  return r;
#endif
}
// sum + the x taps m = 1..R of `here`, from the vectors before and after it.
template <int R, int... M>
inline HostVector host_x_taps(HostVector sum, HostVector before, HostVector here, HostVector after,
                              const HostVector (&w)[R + 1], std::integer_sequence<int, M...>) {
  ((sum = host_fma(w[M + 1], host_shifted<host_pass_width - M - 1>(before, here) + host_shifted<M + 1>(here, after),
                   sum)),
   ...);
  return sum;
}
inline HostVector host_load(const float* p) { return *reinterpret_cast<const HostVector*>(p); }
// Lane indices 0 .. V - 1 (comparisons of HostLanes give a lane mask for `?:`).
typedef int HostLanes __attribute__((vector_size(4 * host_pass_width)));
template <int... L>
inline HostLanes host_lanes(std::integer_sequence<int, L...>) {
  return HostLanes{L...};
}
inline HostLanes host_lanes() { return host_lanes(std::make_integer_sequence<int, host_pass_width>{}); }
// p on a vector's boundary where nontemporal (a pass's vectors start at multiples of V floats of aligned rows).
inline void host_store(float* p, HostVector v, bool nontemporal) {
#if defined(__AVX512F__)
  if (nontemporal) return _mm512_stream_ps(p, reinterpret_cast<__m512>(v));
#elif defined(__AVX__)
  if (nontemporal) return _mm256_stream_ps(p, reinterpret_cast<__m256>(v));
#endif
  (void)nontemporal;
  *reinterpret_cast<HostVector*>(p) = v;
}
// A vector stored where it was just read (the wave step writes u_next over u_prev): streamed only where it is a whole
// 64-byte line (AVX-512). Half a line streamed (AVX2) waits in a write-combining buffer that the next vector's load
// of the same line flushes as a partial write, the line evicted besides: a 256^3 step took 227 ms on two AVX2 EPYC
// cores, 31.5-34.6 through the cache (perf/NOTES.md 167).
inline void host_store_in_place(float* p, HostVector v, bool nontemporal) {
  host_store(p, v, nontemporal && host_pass_width == host_line);
}

// The weights as vectors, once per pass: stores through the may_alias vectors could otherwise reach them, and GCC
// broadcast every weight again in every iteration.
template <int R>
struct HostWeights {
  HostVector center, x[R + 1], y[R + 1], z[R + 1];
  explicit HostWeights(const DeviceWeights<R>& w) : center(w.center - HostVector{}) {
    for (int m = 0; m <= R; ++m) {
      x[m] = w.x[m] - HostVector{};
      y[m] = w.y[m] - HostVector{};
      z[m] = w.z[m] - HostVector{};
    }
  }
};

// The operator over floats [b, e) (multiples of V) of one row in NZ adjacent planes from c (line k: plane k);
// sink(k, i, v): its value at floats i .. i + V - 1 of line k. The lines share their z neighbours, so a pass loads
// each input plane's row once per vector for all of them.
template <int R, Operator Op, int NZ, class Sink>
inline void host_pass(const float* c, int b, int e, const DeviceWeights<R>& weights, std::ptrdiff_t s, std::ptrdiff_t p,
                      const Sink& sink) {
  static_assert(R <= host_pass_width, "the x neighbours must lie in the adjacent vectors");
  constexpr int V = host_pass_width;
  const HostWeights<R> w(weights);
  HostVector before[NZ], here[NZ];
  for (int k = 0; k < NZ; ++k) {
    before[k] = host_load(c + k * p + b - V);
    here[k] = host_load(c + k * p + b);
  }
  // The row of the plane that the pass over the next NZ planes reads first.
  const std::ptrdiff_t front = std::ptrdiff_t((uses_z(Op) ? R : 0) + NZ) * p;
  for (int i = b; i < e; i += V) {
    HostVector sum[NZ], after[NZ];
    for (int k = 0; k < NZ; ++k) {
      if (V >= host_line || i % host_line == 0) prefetch_l2(c + k * p + i + front);
      after[k] = host_load(c + k * p + i + V);
      sum[k] = w.center * here[k];
      if constexpr (uses_x(Op))
        sum[k] = host_x_taps<R>(sum[k], before[k], here[k], after[k], w.x, std::make_integer_sequence<int, R>{});
      if constexpr (uses_y(Op))
        for (int m = 1; m <= R; ++m)
          sum[k] = host_fma(w.y[m], host_load(c + k * p + i - m * s) + host_load(c + k * p + i + m * s), sum[k]);
    }
    if constexpr (uses_z(Op)) {
      HostVector planes[NZ + 2 * R];  // planes -R .. NZ - 1 + R, the pass's own from `here`
      for (int q = 0; q < NZ + 2 * R; ++q)
        planes[q] = q >= R && q < R + NZ ? here[q - R] : host_load(c + (q - R) * p + i);
      for (int m = 1; m <= R; ++m)
        for (int k = 0; k < NZ; ++k) sum[k] = host_fma(w.z[m], planes[R + k - m] + planes[R + k + m], sum[k]);
    }
    for (int k = 0; k < NZ; ++k) {
      sink(k, i, sum[k]);
      before[k] = here[k];
      here[k] = after[k];
    }
  }
}
#else
// The operator of plane k at floats i .. into acc[k] + i (no sink: the epilogue takes whole rows).
template <int R, Operator Op, int NZ>
inline void host_pass(const float* c, float (*acc)[host_span], int n, const DeviceWeights<R>& w, std::ptrdiff_t s,
                      std::ptrdiff_t p) {
  for (int k = 0; k < NZ; ++k)
    for (int i = 0; i < n; ++i) {
      const float* x = c + k * p + i;
      float a = w.center * x[0];
      for (int m = 1; m <= R; ++m) {
        if constexpr (uses_x(Op)) a += w.x[m] * (x[-m] + x[m]);
        if constexpr (uses_y(Op)) a += w.y[m] * (x[-m * s] + x[m * s]);
        if constexpr (uses_z(Op)) a += w.z[m] * (x[-m * p] + x[m * p]);
      }
      acc[k][i] = a;
    }
}
#endif
}  // namespace detail

template <int R, Operator Op, class Epilogue>
struct HostRows {
  static constexpr int V = host_pass_width;
  // Planes per pass, the epilogue's host_planes (1 or 2) up to R = 7: two share their z rows' loads; a third, or
  // two rows of a plane sharing their y rows instead, ran no faster, and at R = 8 the two planes' registers spill
  // (perf/NOTES.md 63).
  static constexpr int NZ = R < 8 ? Epilogue::host_planes : 1;
  static_assert(Epilogue::host_planes == 1 || Epilogue::host_planes == 2);

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
    for (int z = z_begin; z < z_end;) {
      const int planes = z + NZ <= z_end ? NZ : 1;
      // The next planes' y halo rows are read first by their y taps; the passes prefetch their other rows.
      if constexpr (uses_y(Op))
        for (int k = z + planes; k < std::min(z + 2 * planes, z_end); ++k)
          for (int m = 1; m <= R; ++m) {
            prefetch_span(L.offset(x_head - V, y_begin - m, k), x_end - x_head + 2 * V);
            prefetch_span(L.offset(x_head - V, y_end - 1 + m, k), x_end - x_head + 2 * V);
          }
      for (int y = y_begin; y < y_end; ++y)
        for (int x = x_head; x < x_end; x += host_span) {
          const int n = std::min(host_span, x_end - x);
          if (planes == NZ) {
            segment<NZ>(x, n, y, z);
          } else {
            segment<1>(x, n, y, z);
          }
        }
      z += planes;
    }
    nontemporal_fence();
  }

  void prefetch_span(index_t offset, int n) const {
    for (int i = 0; i < n; i += host_line) prefetch_l2(in + offset + i);
  }

  // n floats of row y of planes z .. z + planes - 1 from x: the operator in one pass. The epilogue takes the whole
  // vectors of the x range it names (host_direct: the Laplacian's output, the wave's inner points) straight from
  // the pass, so their loads and streaming stores interleave with the arithmetic (stored from a buffer after the
  // pass, the Laplacian ran 12% slower, perf/NOTES.md 63); the other points' values stay in L1 for its host_row
  // (loops over whole rows that the compiler vectorises, perf/NOTES.md 37).
  template <int planes>
  void segment(int x, int n, int y, int z) const {
    alignas(64) float acc[planes][host_span];
    const index_t offset = L.offset(x, y, z);
    const float* c = in + offset;
    const std::ptrdiff_t ldx = L.ldx, plane = L.plane;
    // What the epilogue reads in the next pass (the next row), all at once: spread over the pass, a line per
    // vector, the wave's inner step ran 19.7 ms against 14.3 (256^3, perf/NOTES.md 63).
    for (int k = 0; k < planes; ++k) epilogue.host_prefetch(offset + k * plane + ldx, n, y + 1, z + k);
    const int first = std::max(box.x0, x), last = std::min(box.x1, x + n);
    // [direct_begin, direct_end): the whole vectors (offsets from x, multiples of V) inside every plane's range.
    int direct_begin = 0, direct_end = 0;
#if defined(SEIS_HOST_VECTORS)
    int lo = first, hi = last;
    for (int k = 0; k < planes; ++k) {
      const auto range = epilogue.host_direct(y, z + k);
      lo = std::max(lo, range.first);
      hi = std::min(hi, range.second);
    }
    if (hi - lo >= V) {
      direct_begin = (lo - x + V - 1) / V * V;
      direct_end = std::max((hi - x) / V * V, direct_begin);
    }
    const auto buffer = [&](int k, int i, const detail::HostVector& value) {
      *reinterpret_cast<detail::HostVector*>(acc[k] + i) = value;
    };
    // A local copy: the may_alias stores could reach the members, which GCC then reloaded for every vector.
    const Epilogue sink = epilogue;
    const auto direct = [&](int k, int i, const detail::HostVector& value) {
      sink.host_vector(L, x + i, y, z + k, offset + k * plane + i, c + k * plane + i, value);
    };
    detail::host_pass<R, Op, planes>(c, 0, direct_begin, w, ldx, plane, buffer);
    detail::host_pass<R, Op, planes>(c, direct_begin, direct_end, w, ldx, plane, direct);
    detail::host_pass<R, Op, planes>(c, direct_end, n, w, ldx, plane, buffer);
#else
    detail::host_pass<R, Op, planes>(c, acc, n, w, ldx, plane);
#endif
    for (int k = 0; k < planes; ++k) {
      const auto rest = [&](int b, int e) {  // floats [b, e) from x
        if (b >= 0 && b < e) epilogue.host_row(L, x + b, x + e, y, z + k, c + k * plane + b, acc[k] + b);
      };
      rest(first - x, direct_begin);
      rest(std::max(direct_end, first - x), last - x);
    }
  }
};

}  // namespace seis

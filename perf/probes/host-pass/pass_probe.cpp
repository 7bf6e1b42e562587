// Stand-alone probe of the host pass (R = 4, AVX-512): variants of the inner loop, in-cache and at 256^3.
#include <immintrin.h>
#include <omp.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>
constexpr int R = 4, V = 16;
typedef float Vec __attribute__((vector_size(64), aligned(4), __may_alias__));
static inline Vec ld(const float* p) { return *(const Vec*)p; }
template <int S>
static inline Vec sh(Vec a, Vec b) {
  if constexpr (S == 0)
    return a;
  else if constexpr (S == V)
    return b;
  else
    return (Vec)_mm512_maskz_alignr_epi32(0xffff, (__m512i)b, (__m512i)a, S);
}
static inline Vec fma(Vec a, Vec b, Vec c) { return (Vec)_mm512_fmadd_ps((__m512)a, (__m512)b, (__m512)c); }
struct W {
  Vec c, x[R + 1], y[R + 1], z[R + 1];
};
template <int M>
static inline Vec xpair(Vec b, Vec h, Vec a) {
  return sh<V - M>(b, h) + sh<M>(h, a);
}

// VARIANT: 0 one chain, 1 split per axis, 2 split + two vectors per iteration interleaved
template <int VAR, int NZ>
static void pass(const float* c, float* out, int n, const W& w, long s, long p, bool nt) {
  Vec before[NZ], here[NZ];
  for (int k = 0; k < NZ; ++k) {
    before[k] = ld(c + k * p - V);
    here[k] = ld(c + k * p);
  }
  const long front = long(R + NZ) * p;
  for (int i = 0; i < n; i += V) {
    Vec sum[NZ], after[NZ], sy[NZ], sz[NZ];
    for (int k = 0; k < NZ; ++k) {
      _mm_prefetch((const char*)(c + k * p + i + front), _MM_HINT_T1);
      after[k] = ld(c + k * p + i + V);
      sum[k] = w.c * here[k];
      if constexpr (!(VAR & 2)) {
        if constexpr (XL >= 1)
          sum[k] = fma(w.x[1], ld(c + k * p + i - 1) + ld(c + k * p + i + 1), sum[k]);
        else
          sum[k] = fma(w.x[1], xpair<1>(before[k], here[k], after[k]), sum[k]);
        if constexpr (XL >= 2)
          sum[k] = fma(w.x[2], ld(c + k * p + i - 2) + ld(c + k * p + i + 2), sum[k]);
        else
          sum[k] = fma(w.x[2], xpair<2>(before[k], here[k], after[k]), sum[k]);
        if constexpr (XL >= 3)
          sum[k] = fma(w.x[3], ld(c + k * p + i - 3) + ld(c + k * p + i + 3), sum[k]);
        else
          sum[k] = fma(w.x[3], xpair<3>(before[k], here[k], after[k]), sum[k]);
        if constexpr (XL >= 4)
          sum[k] = fma(w.x[4], ld(c + k * p + i - 4) + ld(c + k * p + i + 4), sum[k]);
        else
          sum[k] = fma(w.x[4], xpair<4>(before[k], here[k], after[k]), sum[k]);
      }
      sy[k] = Vec{};
      sz[k] = Vec{};
      if constexpr (VAR & 4) {
      } else if constexpr (!(VAR & 1)) {
        for (int m = 1; m <= R; ++m)
          sum[k] = fma(w.y[m], ld(c + k * p + i - m * s) + ld(c + k * p + i + m * s), sum[k]);
      } else {
        sy[k] = w.y[1] * (ld(c + k * p + i - s) + ld(c + k * p + i + s));
        for (int m = 2; m <= R; ++m) sy[k] = fma(w.y[m], ld(c + k * p + i - m * s) + ld(c + k * p + i + m * s), sy[k]);
      }
    }
    Vec planes[NZ + 2 * R];
    for (int q = 0; q < NZ + 2 * R; ++q) planes[q] = q >= R && q < R + NZ ? here[q - R] : ld(c + (q - R) * p + i);
    if constexpr (VAR & 8) {
      for (int k = 0; k < NZ; ++k) sum[k] = sum[k] + sy[k];
    } else if constexpr (!(VAR & 1)) {
      for (int m = 1; m <= R; ++m)
        for (int k = 0; k < NZ; ++k) sum[k] = fma(w.z[m], planes[R + k - m] + planes[R + k + m], sum[k]);
    } else {
      for (int k = 0; k < NZ; ++k) sz[k] = w.z[1] * (planes[R + k - 1] + planes[R + k + 1]);
      for (int m = 2; m <= R; ++m)
        for (int k = 0; k < NZ; ++k) sz[k] = fma(w.z[m], planes[R + k - m] + planes[R + k + m], sz[k]);
      for (int k = 0; k < NZ; ++k) sum[k] = sum[k] + sy[k] + sz[k];
    }
    for (int k = 0; k < NZ; ++k) {
      if (nt)
        _mm512_stream_ps(out + k * p + i, (__m512)sum[k]);
      else
        *(Vec*)(out + k * p + i) = sum[k];
      before[k] = here[k];
      here[k] = after[k];
    }
  }
}

template <int NZ, int... Vs>
static void dispatch_(std::integer_sequence<int, Vs...>, int var, const float* c, float* out, int n, const W& w, long s,
                      long p, bool nt) {
  ((var == Vs ? pass<Vs, NZ>(c, out, n, w, s, p, nt) : void()), ...);
}
template <int NZ>
static void dispatch(int var, const float* c, float* out, int n, const W& w, long s, long p, bool nt) {
  dispatch_<NZ>(std::make_integer_sequence<int, 16>{}, var, c, out, n, w, s, p, nt);
}
int main(int argc, char** argv) {
  const int nx = atoi(argv[1]), ny = atoi(argv[2]), nz = atoi(argv[3]), var = atoi(argv[4]);
  const bool nt = argc > 5 ? atoi(argv[5]) : 1;
  const int chunk = argc > 7 ? atoi(argv[7]) : nx;
  const int reps = argc > 6 ? atoi(argv[6]) : 20;
  const long ldx = nx + (getenv("PAD") ? atoi(getenv("PAD")) : 2 * V), s = ldx, p = ldx * (ny + 2 * R);
  const long total = p * (nz + 2 * R) + 64;
  float* in = (float*)aligned_alloc(64, total * 4);
  float* out = (float*)aligned_alloc(64, total * 4);
  for (long i = 0; i < total; ++i) {
    in[i] = (i % 97) * 0.01f;
    out[i] = 0;
  }
  W w;
  w.c = -3 * 2.847222f - Vec{};
  const float cw[5] = {0, 1.6f, -0.2f, 0.025397f, -0.0017857f};
  for (int m = 0; m <= R; ++m) {
    w.x[m] = cw[m] - Vec{};
    w.y[m] = w.x[m];
    w.z[m] = w.x[m];
  }
  const long base = R * p + R * s + V;
  auto run = [&] {
#pragma omp parallel
    {
      const int t = omp_get_thread_num(), T = omp_get_num_threads();
      const int z0 = nz * t / T, z1 = nz * (t + 1) / T;
      for (int z = z0; z < z1; z += NZP)
        for (int x = 0; x < nx; x += chunk)
          for (int y = 0; y < ny; ++y) {
            const long o = base + z * p + y * s + x;
            if (z + NZP <= z1) {
              dispatch<NZP>(var, in + o, out + o, chunk, w, s, p, nt);
            } else {
              for (int k = z; k < z1; ++k)
                dispatch<1>(var, in + o + (k - z) * p, out + o + (k - z) * p, chunk, w, s, p, nt);
            }
          }
      _mm_sfence();
    }
  };
  run();
  run();
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto a = std::chrono::steady_clock::now();
    run();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count());
  }
  std::sort(t.begin(), t.end());
  double sum = 0;
  for (long i = 0; i < total; i += 1001) sum += out[i];
  printf("%dx%dx%d var %d nt %d: median %.3f ms, %.2f GPts/s (chk %g)\n", nx, ny, nz, var, nt, t[reps / 2] * 1e3,
         double(nx) * ny * nz / t[reps / 2] * 1e-9, sum);
}

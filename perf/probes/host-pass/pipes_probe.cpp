// The core's zmm pipes: cycles per iteration of independent chains of FMAs, adds and valignd shuffles, alone and
// together (one thread; the clock from a dependent chain: an FMA's latency is 4 cycles).
#include <immintrin.h>

#include <chrono>
#include <cstdio>

namespace {
constexpr long iterations = 100000000;
constexpr int chains = 6;

// Keeps v in a register and opaque to the compiler, so that no chain is merged with another or hoisted.
inline void opaque(__m512& v) { asm volatile("" : "+v"(v)); }

// Six chains of each kind as named variables: GCC kept arrays of them in memory.
#define SEIS_SIX(X) X(0) X(1) X(2) X(3) X(4) X(5)

template <int Fmas, int Adds, int Shuffles>
double cycles_per_iteration(double ghz) {
  const __m512 m = _mm512_set1_ps(0.9999999f), c = _mm512_set1_ps(1e-8f);
  __m512 x1 = _mm512_set1_ps(2);
#define SEIS_DECLARE(k) __m512 f##k = _mm512_set1_ps(k), a##k = f##k, s##k = f##k;
  SEIS_SIX(SEIS_DECLARE)
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < iterations; ++i) {
#define SEIS_STEP(k)                                                  \
  if constexpr (k < Fmas) opaque(f##k = _mm512_fmadd_ps(f##k, m, c)); \
  if constexpr (k < Adds) opaque(a##k = _mm512_add_ps(a##k, c));      \
  if constexpr (k < Shuffles)                                         \
    opaque(s##k = _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(x1), _mm512_castps_si512(s##k), k + 1)));
    SEIS_SIX(SEIS_STEP)
    opaque(x1);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  __m512 sum = _mm512_setzero_ps();
#define SEIS_SUM(k) sum = _mm512_add_ps(sum, _mm512_add_ps(f##k, _mm512_add_ps(a##k, s##k)));
  SEIS_SIX(SEIS_SUM)
  std::printf("%d FMA + %d add + %d valignd: %.2f cycles per iteration (%g)\n", Fmas, Adds, Shuffles,
              seconds / iterations * ghz * 1e9, _mm512_reduce_add_ps(sum));
  return seconds;
}

double clock_ghz() {
  const __m512 m = _mm512_set1_ps(0.9999999f), c = _mm512_set1_ps(1e-8f);
  __m512 f = _mm512_set1_ps(1);
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < iterations; ++i) {
    f = _mm512_fmadd_ps(f, m, c);
    opaque(f);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("clock: %.2f GHz (%g)\n", 4.0 * iterations / seconds / 1e9, _mm512_reduce_add_ps(f));
  return 4.0 * iterations / seconds / 1e9;
}
}  // namespace

int main() {
  const double ghz = clock_ghz();
  cycles_per_iteration<6, 0, 0>(ghz);
  cycles_per_iteration<0, 6, 0>(ghz);
  cycles_per_iteration<6, 6, 0>(ghz);
  cycles_per_iteration<0, 0, 6>(ghz);
  cycles_per_iteration<4, 0, 6>(ghz);
  cycles_per_iteration<4, 4, 6>(ghz);
}

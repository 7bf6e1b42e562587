#include <immintrin.h>
#include <chrono>
#include <cstdio>
#define B(x) asm volatile("" : "+v"(x))
#define AL(d, a, b, s) d = _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(b), _mm512_castps_si512(a), s))
int main() {
  const long n = 100000000;
  const __m512 m = _mm512_set1_ps(0.9999999f), c = _mm512_set1_ps(1e-8f);
  __m512 x0 = _mm512_set1_ps(1), x1 = _mm512_set1_ps(2), s0, s1, s2, s3, s4, s5;
  __m512 f0 = x0, f1 = x1, f2 = x0, f3 = x1, a0 = x0, a1 = x1, a2 = x0, a3 = x1;
  for (int mode = 0; mode < 3; ++mode) {
    auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < n; ++i) {
      AL(s0, x0, x1, 1);
      AL(s1, x0, x1, 2);
      AL(s2, x0, x1, 3);
      AL(s3, x1, x0, 4);
      AL(s4, x1, x0, 5);
      AL(s5, x1, x0, 6);
      B(s0);
      B(s1);
      B(s2);
      B(s3);
      B(s4);
      B(s5);
      if (mode >= 1) {
        f0 = _mm512_fmadd_ps(f0, m, c);
        f1 = _mm512_fmadd_ps(f1, m, c);
        f2 = _mm512_fmadd_ps(f2, m, c);
        f3 = _mm512_fmadd_ps(f3, m, c);
      }
      if (mode >= 2) {
        a0 = _mm512_add_ps(a0, c);
        a1 = _mm512_add_ps(a1, c);
        a2 = _mm512_add_ps(a2, c);
        a3 = _mm512_add_ps(a3, c);
      }
      B(f0);
      B(f1);
      B(f2);
      B(f3);
      B(a0);
      B(a1);
      B(a2);
      B(a3);
      B(x0);
      B(x1);
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const char* name[] = {"6 valignd            ", "6 valignd + 4 FMA    ", "6 valignd+4 FMA+4 add"};
    std::printf("%s: %.2f cycles per iteration\n", name[mode], s / n * 3.67e9);
  }
  std::printf("%g\n", _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(f0, a0), _mm512_add_ps(s0, s5))));
}

#include <immintrin.h>
#include <chrono>
#include <cstdio>
#define B(x) asm volatile("" : "+v"(x))
int main() {
  const long n = 100000000;
  const __m512 m = _mm512_set1_ps(0.9999999f), c = _mm512_set1_ps(1e-8f);
  __m512 f0 = _mm512_set1_ps(1), f1 = _mm512_set1_ps(2), f2 = _mm512_set1_ps(3), f3 = _mm512_set1_ps(4),
         f4 = _mm512_set1_ps(5), f5 = _mm512_set1_ps(6);
  __m512 a0 = f0, a1 = f1, a2 = f2, a3 = f3, a4 = f4, a5 = f5;
  for (int mode = 0; mode < 3; ++mode) {
    auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < n; ++i) {
      if (mode != 1) {
        f0 = _mm512_fmadd_ps(f0, m, c);
        f1 = _mm512_fmadd_ps(f1, m, c);
        f2 = _mm512_fmadd_ps(f2, m, c);
        f3 = _mm512_fmadd_ps(f3, m, c);
        f4 = _mm512_fmadd_ps(f4, m, c);
        f5 = _mm512_fmadd_ps(f5, m, c);
      }
      if (mode != 0) {
        a0 = _mm512_add_ps(a0, c);
        a1 = _mm512_add_ps(a1, c);
        a2 = _mm512_add_ps(a2, c);
        a3 = _mm512_add_ps(a3, c);
        a4 = _mm512_add_ps(a4, c);
        a5 = _mm512_add_ps(a5, c);
      }
      B(f0);
      B(f1);
      B(f2);
      B(f3);
      B(f4);
      B(f5);
      B(a0);
      B(a1);
      B(a2);
      B(a3);
      B(a4);
      B(a5);
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%s: %.2f ns per iteration, %.2f cycles at 3.67 GHz\n",
                mode == 0   ? "6 FMA      "
                : mode == 1 ? "6 add      "
                            : "6 FMA+6 add",
                s / n * 1e9, s / n * 3.67e9);
  }
  __m512 t = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(f0, f1), _mm512_add_ps(f2, f3)), _mm512_add_ps(f4, f5));
  t = _mm512_add_ps(t,
                    _mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(_mm512_add_ps(a2, a3), _mm512_add_ps(a4, a5))));
  std::printf("%g\n", _mm512_reduce_add_ps(t));
}

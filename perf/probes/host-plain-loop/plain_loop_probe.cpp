#include <omp.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
int main(int argc, char** argv) {
  const int n = atoi(argv[1]), R = 4, reps = atoi(argv[2]);
  const int ld = n + 2 * R + 8, pl = ld * (n + 2 * R);
  const size_t size = size_t(pl) * (n + 2 * R) + 64;
  float* u = (float*)aligned_alloc(64, size * 4);
  float* o = (float*)aligned_alloc(64, size * 4);
  for (size_t i = 0; i < size; ++i) u[i] = (i % 17) * 0.1f, o[i] = 0;
  const float w0 = -7.f, w[5] = {0, 1.6f, -0.2f, 0.025f, -0.0018f};
  auto run = [&] {
#pragma omp parallel for collapse(2) schedule(static)
    for (int z = 0; z < n; ++z)
      for (int y = 0; y < n; ++y) {
        const float* c = u + size_t(z + R) * pl + size_t(y + R) * ld + R + 4;
        float* out = o + (c - u);
#pragma omp simd
        for (int x = 0; x < n; ++x) {
          float s = w0 * c[x];
          for (int k = 1; k <= R; ++k)
            s += w[k] * ((c[x - k] + c[x + k]) + (c[x - k * ld] + c[x + k * ld]) + (c[x - k * pl] + c[x + k * pl]));
          out[x] = s;
        }
      }
  };
  run();
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r) run();
  double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps;
  printf("n=%d threads=%d %.3f GPts/s\n", n, omp_get_max_threads(), double(n) * n * n / dt * 1e-9);
}

#include <chrono>
#include <cstdio>
int main() {
  long n = 2000000000;
  double t;
  auto a = std::chrono::steady_clock::now();
  long x = 0;
  asm volatile("" : "+r"(x));
  for (long i = 0; i < n; ++i) {
    asm volatile("add $1, %0" : "+r"(x));
  }
  t = std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
  printf("%.2f GHz (1 add/cycle chain)\n", n / t * 1e-9);
}

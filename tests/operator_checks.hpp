#pragma once
// Shared by the tests of linear operators (Born modelling and its adjoints): random inputs, inner products in
// double, and the worst point-by-point error against an oracle.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace seis::test {

template <class T>
std::vector<T> gaussian(std::size_t n, std::mt19937& rng) {
  std::normal_distribution<double> draw;
  std::vector<T> v(n);
  for (T& x : v) x = T(draw(rng));
  return v;
}

template <class A, class B>
double dot(const std::vector<A>& a, const std::vector<B>& b) {
  double sum = 0;
  for (std::size_t p = 0; p < a.size(); ++p) sum += double(a[p]) * double(b[p]);
  return sum;
}

// The largest |got - expected| over the largest |expected|.
inline double worst_relative(const std::vector<float>& got, const std::vector<double>& expected) {
  double error = 0, scale = 0;
  for (std::size_t p = 0; p < got.size(); ++p) {
    error = std::max(error, std::abs(double(got[p]) - expected[p]));
    scale = std::max(scale, std::abs(expected[p]));
  }
  return error / scale;
}

}  // namespace seis::test

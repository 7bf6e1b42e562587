#pragma once
// Shared by the tests of linear operators (Born modelling and its adjoints): random inputs, inner products in
// double, and the worst point-by-point error against an oracle.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "seis/core/host_parallel.hpp"
#include "seis/reference/born.hpp"

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

// |got - expected| / |expected| in L2.
template <class T>
double relative_l2(const std::vector<T>& got, const std::vector<double>& expected) {
  double error = 0, norm = 0;
  for (std::size_t p = 0; p < got.size(); ++p) {
    error += (double(got[p]) - expected[p]) * (double(got[p]) - expected[p]);
    norm += expected[p] * expected[p];
  }
  return std::sqrt(error / norm);
}

// Born data B dq and the image B^T d from the double oracles, and the error float32 arithmetic is expected to make
// in each: the oracles run again under reference::FloatRounding (every operation of the background, the weight, the
// scattered and the adjoint states given float32's error), the relative L2 distance's RMS over `seeds` runs. As
// for the wave step (tstWave.hpp), the run's error divided by it follows Student's t with `seeds` degrees of
// freedom: P(|t_8| > 10) = 8.5e-6 per estimate. The model counts every rounding at the full magnitude of its
// terms and overestimates: the ratios measured were 0.06 to 0.19 (R = 1, 4, 8, every strategy, OpenMP); a wrong
// term in the layer's part of the Born weight gave 400 to 1500.
struct BornOracle {
  static constexpr int seeds = 8;
  static constexpr double allowance = 10.0;
  std::vector<double> data, image;
  double data_error = 0, image_error = 0;

  BornOracle(const wave::Setup& s, const std::vector<float>& dq, const std::vector<float>& d) {
    const std::vector<double> wide_dq(dq.begin(), dq.end()), wide_d(d.begin(), d.end());
    const reference::BornReference exact(s);
    data = exact.born(wide_dq);
    image = exact.adjoint(wide_d);
    std::vector<double> squared(2 * seeds);
    host_parallel_for(
        seeds,
        [&](std::size_t first, std::size_t last) {
          for (std::size_t seed = first; seed < last; ++seed) {
            const reference::BornReference rounded(s, reference::FloatRounding{seed + 1});
            squared[2 * seed] = std::pow(relative_l2(rounded.born(wide_dq), data), 2);
            squared[2 * seed + 1] = std::pow(relative_l2(rounded.adjoint(wide_d), image), 2);
          }
        },
        1);
    for (int seed = 0; seed < seeds; ++seed) {
      data_error += squared[2 * std::size_t(seed)] / seeds;
      image_error += squared[2 * std::size_t(seed) + 1] / seeds;
    }
    data_error = std::sqrt(data_error);
    image_error = std::sqrt(image_error);
  }
};

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

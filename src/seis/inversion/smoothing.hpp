#pragma once
// The gradient's smoothing, as a change of the optimiser's variables: x = x0 + S z, S a Gaussian of standard
// deviation `length` along each axis (truncated at 3 of them and at the grid's edges), each row normalised to sum 1,
// so that S keeps constants and a point's value is a weighted mean of its neighbours'. The steepest descent in z is
// then -S^T g: the gradient smoothed, as one function's exact gradient. Because the weights are positive and sum to
// 1, z within [max of the lower bounds S spreads it to, min of the upper] keeps every x within its own bounds.
// Host-only; models x fastest, then y, then z.
#include <array>
#include <vector>

namespace seis::inversion {

class Smoothing {
 public:
  // Refuses a length that is not positive and finite. A length under a third of a point leaves S the identity.
  Smoothing(std::array<int, 3> points, double spacing, double length);
  // S v and S^T v.
  std::vector<double> apply(const std::vector<double>& v) const;
  std::vector<double> transpose(const std::vector<double>& v) const;
  // At each point q, the largest of `lower` over the points p whose S row reaches q (S_pq > 0), and the smallest of
  // `upper`: z within them keeps x0 + S z within x0 + lower and x0 + upper.
  std::vector<double> spread_lower(const std::vector<double>& lower) const;
  std::vector<double> spread_upper(const std::vector<double>& upper) const;
  int reach() const { return reach_; }  // points: where the weights stop

 private:
  std::array<int, 3> n_;
  int reach_ = 0;
  std::vector<double> weights_;  // w[k], k = 0 .. reach
  std::array<std::vector<double>, 3> row_sums_;

  // `along(axis, line)` over every line of the grid along `axis`, its values read and written at stride.
  template <class Line>
  void lines(std::vector<double>& v, int axis, const Line& along) const;
  // Each point's box of half-width reach_: the value that `first` orders first.
  template <class First>
  std::vector<double> spread(std::vector<double> values, const First& first) const;
};

}  // namespace seis::inversion

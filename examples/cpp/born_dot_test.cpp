// Born modelling and its adjoint through the operators, in velocity units: <J dv, r> = <dv, J^T r> for random dv
// and r, the identity an inversion's gradient rests on. Prints both sides; exit 1 if they differ by more than float32
// rounding allows: K = steps (6R + 22) roundings a point on either side, 5 x their difference's spread
// sqrt(2 K / 3) 2^-24 of the larger side.
#include <cmath>
#include <cstdio>
#include <random>

#include "seis/operators/acoustic.hpp"

namespace {
double dot(const std::vector<float>& a, const std::vector<float>& b) {
  double sum = 0;
  for (std::size_t n = 0; n < a.size(); ++n) sum += double(a[n]) * b[n];
  return sum;
}
}  // namespace

int main() {
  seis::operators::start_runtime();
  int status = 1;
  {
    std::mt19937 rng(2024);
    std::uniform_real_distribution<float> speed(1500.0f, 3000.0f);
    std::normal_distribution<float> gaussian;
    seis::wave::Grid grid;
    grid.nx = 32, grid.ny = 28, grid.nz = 24, grid.h = 10.0, grid.ndamp = 4;
    seis::wave::Medium medium;
    for (int p = 0; p < 32 * 28 * 24; ++p) medium.velocity.push_back(speed(rng));
    seis::wave::Numerics numerics;
    numerics.steps = 80;
    const seis::operators::Acoustic ops(grid, medium, numerics);
    seis::wave::Acquisition shot;
    shot.sources = {{150.0, 130.0, 60.0}};
    for (int n = 0; n < 9; ++n) shot.receivers.push_back({50.0 + 25.0 * n, 130.0, 50.0});
    shot.f0 = 30.0;
    std::vector<float> dv(medium.velocity.size()), r(shot.receivers.size() * std::size_t(numerics.steps));
    for (float& x : dv) x = gaussian(rng);
    for (float& x : r) x = gaussian(rng);
    const auto jdv = ops.born(shot, dv);
    const auto jtr = ops.adjoint(shot, r);
    const double lhs = dot(jdv, r), rhs = dot(dv, jtr);
    const double size = std::sqrt(std::max(dot(jdv, jdv), dot(jtr, jtr)));
    std::printf("on %s: <J dv, r> = %.9e, <dv, J^T r> = %.9e, difference %.1e of their size\n", ops.backend().c_str(),
                lhs, rhs, std::abs(lhs - rhs) / size);
    const double spread = std::sqrt(2.0 * numerics.steps * (6.0 * numerics.radius + 22) / 3.0) * std::ldexp(1.0, -24);
    status = std::abs(lhs - rhs) <= 5 * spread * size ? 0 : 1;
  }
  seis::operators::stop_runtime();
  return status;
}

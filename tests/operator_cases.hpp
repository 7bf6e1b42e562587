#pragma once
// The acoustic operators on a topic's backend and their small test case, shared by the operators' and the
// inversion's tests.
#include <random>

#include "seis/operators/acoustic.hpp"
#include "wave_cases.hpp"

namespace seis::test {

struct BackendAcoustic : operators::Acoustic {
  explicit BackendAcoustic(const wave::Setup& s) : Acoustic(s, s, s, TEST_EXECSPACE::name()) {}
};

// 28 x 24 x 22 points of 10 m, PML 4, a random 1500-3000 m/s model, dt left to the operators; a shot whose
// receivers' corners all lie inside the inner region (the adjoint injects where the step's D3 = 1).
struct OperatorCase {
  wave::Setup model;
  wave::Acquisition shot;
};

inline OperatorCase operator_case(int radius, std::mt19937& rng) {
  OperatorCase c;
  c.model = box_setup(28, 24, 22, 10.0, 2000.0f, radius);
  randomise_velocity(c.model, 1500.0f, 3000.0f, rng);
  c.model.ndamp = 4;
  c.model.steps = 70;
  c.shot.sources = {{121.3, 102.7, 60.1}};
  c.shot.f0 = 40.0;
  for (int n = 0; n < 7; ++n) c.shot.receivers.push_back({45.0 + n * 30.0, 42.0 + n * 20.0, 48.0 + n * 18.0});
  return c;
}

// The case with one dt for every model near it (left to the operators, each would follow its own largest velocity).
inline OperatorCase operator_case_at_one_dt(int radius, std::mt19937& rng) {
  OperatorCase c = operator_case(radius, rng);
  c.model.dt = BackendAcoustic(c.model).setup().dt / 1.1;
  return c;
}

}  // namespace seis::test

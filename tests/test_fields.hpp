#pragma once
// Shared helpers of the backend test bodies: fresh random inputs, poisoned outputs, checks against the oracle.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>

#include "seis/core/field.hpp"
#include "seis/reference/star_stencil.hpp"

namespace seis::test {

// A fresh seed per run (fresh random inputs), printed by every failing check; SEIS_TEST_SEED replays one.
inline unsigned test_seed() {
  static const unsigned seed = [] {
    if (const char* fixed = std::getenv("SEIS_TEST_SEED"))
      return static_cast<unsigned>(std::strtoul(fixed, nullptr, 10));
    return std::random_device{}();
  }();
  return seed;
}

// Uniform values in [-1, 1] everywhere, halo and padding included.
inline Field<Kokkos::HostSpace> random_field(const FieldLayout& layout, std::mt19937& rng) {
  Field<Kokkos::HostSpace> field("random input", layout);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  float* data = field.data();
  for (std::size_t n = 0; n < layout.size; ++n) data[n] = uniform(rng);
  return field;
}

inline void poison(const Field<Kokkos::HostSpace>& field) {
  float* data = field.data();
  for (std::size_t n = 0; n < field.layout().size; ++n) data[n] = std::nanf("");
}

// Checks every interior point against the reference and that no halo or padding point was written (still NaN).
inline void expect_matches_reference(const Field<Kokkos::HostSpace>& out, const ReferenceResult& expected, int radius,
                                     const std::string& what) {
  const FieldLayout& L = out.layout();
  const double factor = float32_tolerance_factor(radius);
  int reported = 0;
  std::size_t bad = 0;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const double got = out.data()[L.offset(i, j, k)];
        const double want = expected.at(i, j, k);
        const double tolerance = factor * expected.scale(i, j, k);
        if (!(std::abs(got - want) <= tolerance)) {
          ++bad;
          if (reported++ < 5)
            ADD_FAILURE() << what << ": point (" << i << ", " << j << ", " << k << ") = " << got << ", reference "
                          << want << ", tolerance " << tolerance << " (seed " << test_seed() << ")";
        }
      }
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << L.interior_points() << " interior points wrong";

  std::size_t written_outside = 0;
  std::vector<char> interior(L.size, 0);
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) interior[L.offset(i, j, k)] = 1;
  for (std::size_t n = 0; n < L.size; ++n)
    if (!interior[n] && !std::isnan(out.data()[n])) ++written_outside;
  EXPECT_EQ(written_outside, 0u) << what << ": wrote " << written_outside << " halo or padding points";
}

}  // namespace seis::test

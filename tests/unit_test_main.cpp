#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <cstdlib>

int main(int argc, char* argv[]) {
  // Kokkos' OpenMP backend warns on stdout when OMP_PROC_BIND is unset, and gtest_discover_tests would read that
  // warning as a test name. Unit tests do not need thread binding.
  setenv("OMP_PROC_BIND", "false", 0);
  Kokkos::ScopeGuard kokkos(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

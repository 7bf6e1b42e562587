#pragma once
#include "seis/core/compat.hpp"

#define TEST_CATEGORY openmp
#define TEST_EXECSPACE Kokkos::OpenMP

#pragma once
#include "seis/core/compat.hpp"

#define TEST_CATEGORY cuda
#define TEST_EXECSPACE Kokkos::Cuda

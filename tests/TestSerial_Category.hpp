#pragma once
#include "seis/core/compat.hpp"

#define TEST_CATEGORY serial
#define TEST_EXECSPACE Kokkos::Serial

#pragma once
#include "seis/core/compat.hpp"

#define TEST_CATEGORY hip
#define TEST_EXECSPACE seis::compat::HIP

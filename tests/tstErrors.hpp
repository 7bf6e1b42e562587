// Test body compiled once per backend: bad input gives seis::InvalidArgument naming the value and the limit.
#include <gtest/gtest.h>

#include "seis/core/error.hpp"
#include "seis/kernels/registry.hpp"

namespace {

using Exec = TEST_EXECSPACE;
using Memory = Exec::memory_space;

template <class Function>
void expect_error_mentioning(Function&& function, const std::string& text) {
  try {
    function();
    ADD_FAILURE() << "no exception; expected one mentioning '" << text << "'";
  } catch (const seis::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << "message: " << e.what();
  }
}

TEST(TEST_CATEGORY, UnknownKernelNameIsRefused) {
  expect_error_mentioning([] { seis::find_kernel<Exec>("no-such-kernel"); }, "no-such-kernel");
}

TEST(TEST_CATEGORY, EveryKernelRefusesBadShapesRadiiAndOptions) {
  for (const auto& variant : seis::kernel_registry<Exec>()) {
    SCOPED_TRACE(variant.name);
    const auto layout = seis::make_layout(8, 8, 8, 2);
    seis::Field<Memory> in("in", layout), out("out", layout);
    seis::Field<Memory> other("other", seis::make_layout(8, 8, 9, 2));

    expect_error_mentioning([&] { seis::apply(variant, Exec(), in, other, seis::make_coefficients(2)); },
                            "different shapes");
    expect_error_mentioning([&] { seis::apply(variant, Exec(), in, out, seis::make_coefficients(3)); },
                            "halo 2 is smaller than the radius R = 3");
    expect_error_mentioning([&] { seis::apply(variant, Exec(), in, in, seis::make_coefficients(2)); },
                            "different fields");
    seis::StencilCoefficients bad_radius = seis::make_coefficients(2);
    bad_radius.radius = 9;
    expect_error_mentioning([&] { seis::apply(variant, Exec(), in, out, bad_radius); }, "R = 9");
    seis::LaunchOptions bad_vec;
    bad_vec.vector_width = 3;
    expect_error_mentioning([&] { seis::apply(variant, Exec(), in, out, seis::make_coefficients(2), bad_vec); },
                            "VEC = 3");
    seis::LaunchOptions bad_window;
    bad_window.window = -1;
    expect_error_mentioning([&] { seis::apply(variant, Exec(), in, out, seis::make_coefficients(2), bad_window); },
                            "nw = -1");
  }
}

}  // namespace

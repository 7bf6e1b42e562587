#pragma once
// Turns the run-time radius into the compile-time R every kernel is templated on.
#include <type_traits>

#include "seis/core/error.hpp"
#include "seis/core/layout.hpp"

namespace seis {

template <int R>
using Radius = std::integral_constant<int, R>;

template <class Function>
void with_radius(int radius, Function&& function) {
  switch (radius) {
    case 1:
      function(Radius<1>{});
      return;
    case 2:
      function(Radius<2>{});
      return;
    case 3:
      function(Radius<3>{});
      return;
    case 4:
      function(Radius<4>{});
      return;
    case 5:
      function(Radius<5>{});
      return;
    case 6:
      function(Radius<6>{});
      return;
    case 7:
      function(Radius<7>{});
      return;
    case 8:
      function(Radius<8>{});
      return;
    default:
      fail("stencil radius R = ", radius, " must be in [1, ", max_radius, "]");
  }
}

}  // namespace seis

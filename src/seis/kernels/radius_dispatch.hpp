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

// with_radius for radii in [Low, High] only: a translation unit instantiates the kernels of those radii (the code
// shapes' families are compiled in two halves, R 1-4 and 5-8, so that a 2-core build runs them side by side).
template <int Low, int High, class Function>
void with_radius_between(int radius, Function&& function) {
  require(radius >= 1 && radius <= max_radius, "stencil radius R = ", radius, " must be in [1, ", max_radius, "]");
  require(radius >= Low && radius <= High, "stencil radius R = ", radius, " sent to the kernels of R = ", Low, "..",
          High);
  if constexpr (Low < High) {
    if (radius == Low)
      function(Radius<Low>{});
    else
      with_radius_between<Low + 1, High>(radius, function);
  } else {
    function(Radius<Low>{});
  }
}

}  // namespace seis

#include "seis/wave/shape.hpp"

#include "seis/core/error.hpp"

namespace seis::wave {

const ShapeInfo& info(Shape s) {
  if (const ShapeInfo* i = find_shape(s)) return *i;
  fail("unknown kernel shape ", static_cast<int>(s));
}

const char* to_string(Shape s) { return info(s).name; }

std::string shape_names() {
  std::string names;
  for (const ShapeInfo& i : shape_table) names += (names.empty() ? "" : ", ") + std::string(i.name);
  return names;
}

Shape parse_shape(const std::string& text) {
  for (const ShapeInfo& i : shape_table)
    if (text == i.name) return i.shape;
  fail("unknown kernel '", text, "' (", shape_names(), ")");
}

Shape single_step_shape(Shape s) {
  switch (s) {
    case Shape::st_gmem_35d:
      return Shape::gmem;
    case Shape::st_reg_shft_35d:
      return Shape::st_reg_shft;
    default:
      return s;
  }
}

int steps_per_launch(Shape s) { return info(s).family == ShapeFamily::temporal ? 2 : 1; }

}  // namespace seis::wave

#include "seis/imaging/born.hpp"

#include "seis/core/layout.hpp"
#include "seis/wave/shape.hpp"

namespace seis::imaging {

wave::Setup one_step_setup(const wave::Setup& s) {
  wave::Setup one = s;
  one.shape = wave::single_step_shape(s.shape);
  return one;
}

std::size_t born_bytes(const wave::Setup& s) {
  wave::Setup background = one_step_setup(s), scattered = background;
  background.receivers.clear();
  scattered.sources.clear();
  const FieldLayout layout = make_layout(s.nx, s.ny, s.nz, s.radius);
  return wave::required_bytes(background) + wave::required_bytes(scattered) +
         2 * (layout.size + alignment_floats) * sizeof(float);
}

}  // namespace seis::imaging

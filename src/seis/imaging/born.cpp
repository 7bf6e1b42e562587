#include "seis/imaging/born.hpp"

#include "seis/core/error.hpp"
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
  const FieldLayout layout = make_layout(s.nx, s.ny, s.nz, wave::halo_depth(s));
  // dq, u_{n-1} (r_{n-1} in the TTI step, drho where the density varies)
  const std::size_t fields = 1 + std::size_t(wave::wavefield_count(s)) + (wave::variable_density(s) ? 1 : 0);
  return wave::required_bytes(background) + wave::required_bytes(scattered) +
         fields * (layout.size + alignment_floats) * sizeof(float);
}

void require_born_memory(const wave::Setup& s, std::size_t available_bytes) {
  const std::size_t need = born_bytes(s);
  require(need <= available_bytes, "Born modelling of a ", s.nx, "x", s.ny, "x", s.nz, " grid needs ", need / 1048576.0,
          " MiB of device memory (two simulations, dq, the wavefields of a step and drho where the density varies), ",
          available_bytes / 1048576.0, " MiB are available");
}

}  // namespace seis::imaging

#pragma once
// The density in the field layout, its halo filled as the variable-density kernel reads it (density.hpp), and a
// change of it extended the same way (Born's density perturbation, imaging/density_terms.hpp).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "seis/core/field.hpp"
#include "seis/core/host_parallel.hpp"
#include "seis/core/layout.hpp"
#include "seis/wave/setup.hpp"

namespace seis::wave {

// Values given over density_box(s) (the density, or a change of it) on `part` and its halo in the field layout, as
// the variable-density kernel reads the density without bounds (density.hpp, density_index): beyond the grid the
// edge value, above a free surface the mirror, at a shared face the neighbour's (density_box holds R beyond the
// part); the rows' padding, which only dead columns read, `padding`. Filled on the host's CPUs, plane by plane, and
// copied.
template <class Memory>
Field<Memory> extended_field(const Setup& s, const Subdomain& part, const FieldLayout& layout,
                             const std::vector<float>& values, float padding, const std::string& name) {
  Field<Memory> field(name, layout);
  Field<Kokkos::HostSpace> host(name + " (host)", layout);
  const Subdomain held = density_box(s);
  const int h = layout.halo;
  float* out = host.data();
  host_parallel_for(
      std::size_t(layout.nz + 2 * h),
      [&](std::size_t first, std::size_t end) {
        for (int k = int(first) - h; k < int(end) - h; ++k) {
          std::fill_n(out + layout.plane_offset(k), layout.plane, padding);
          for (int j = -h; j < layout.ny + h; ++j)
            for (int i = -h; i < layout.nx + h; ++i)
              out[layout.offset(i, j, k)] =
                  values[density_index(s, held, part.offset[0] + i, part.offset[1] + j, part.offset[2] + k)];
        }
      },
      1);
  deep_copy(field, host);
  return field;
}

// The density of `part` (extended_field).
template <class Memory>
Field<Memory> density_field(const Setup& s, const Subdomain& part, const FieldLayout& layout) {
  return extended_field<Memory>(s, part, layout, s.density, 1.0f, "seis::wave::density");
}

}  // namespace seis::wave

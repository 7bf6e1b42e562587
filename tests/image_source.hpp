#pragma once
// The free surface's oracle, shared by the isotropic and the TTI step's tests: a shot under a free surface and, in
// the grid mirrored about the surface, the same shot with its image (at -z, firing the negated wavelet).
#include <cstddef>
#include <vector>

#include "seis/wave/simulation.hpp"

namespace seis::test {

struct ImageRuns {
  std::vector<float> wavelet;               // the shot's, a sample a step
  std::vector<float> traces, image_traces;  // under the surface and in the mirrored grid, [receiver][sample]
  std::vector<float> field, image_field;    // p at the end: under the surface, and the mirrored grid's below it
};

// `free` has a free top and n planes, `mirrored` 2n - 1 (its surface on plane n - 1, the medium mirrored by the
// caller). The source and free's receivers in free's coordinates, placed (n - 1) h deeper in the mirrored grid.
template <class Exec>
ImageRuns image_source_runs(const wave::Setup& free, wave::Setup mirrored, const wave::Point& source) {
  const double top = (free.nz - 1) * free.h;
  mirrored.receivers.clear();
  for (const auto& r : free.receivers) mirrored.receivers.push_back({r.x, r.y, r.z + top});
  ImageRuns runs;
  for (int t = 0; t < free.steps; ++t) runs.wavelet.push_back(float(wave::wavelet(free.wavelet, free.f0, t * free.dt)));
  std::vector<float> with_image = runs.wavelet;
  for (float w : runs.wavelet) with_image.push_back(-w);
  wave::Simulation<Exec> a(free), b(mirrored);
  a.new_shot({source}, runs.wavelet, free.receivers);
  b.new_shot({{source.x, source.y, top + source.z}, {source.x, source.y, top - source.z}}, with_image,
             mirrored.receivers);
  a.advance(free.steps);
  b.advance(mirrored.steps);
  runs.traces = a.traces();
  runs.image_traces = b.traces();
  runs.field = a.wavefield();
  const std::vector<float> below = b.wavefield();
  const auto from = below.begin() + std::ptrdiff_t(free.nz - 1) * free.nx * free.ny;
  runs.image_field.assign(from, from + std::ptrdiff_t(runs.field.size()));
  return runs;
}

}  // namespace seis::test

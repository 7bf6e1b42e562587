#pragma once
// The absorbing layer's reflection at normal incidence, measured: the isotropic step's PML and the TTI step's damping
// layer (wave/tti.hpp), by one procedure.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "seis/wave/simulation.hpp"
#include "wave_cases.hpp"

namespace seis::test {

// A shot on the model's x+ face (its last point before the layer) in a grid whose x+ layer is d points thick and in
// one longer by d + 8 points (whose x+ arrivals come after the window); their difference at a receiver 10 points
// inside the model, until the wave that crossed the layer and came back from the zero wall behind it has passed, is
// the x+ layer's alone (the other faces lie alike in both). A point source's wave falls as 1/distance and each
// return comes from an image source, so a coefficient is max|difference| x (its image distance) / (max|direct| x
// direct distance): the entrance's (image across the layer's edge) and the wall's (2 L further), told apart at the
// midpoint between their arrivals. The layer is designed to absorb ln(1000) nepers there and back at any thickness (a
// quadratic profile of d0 = 3 v ln(1000) / (2 L): exp(-2 d0 L / (3 v)) = 1e-3). The PML matches the design only
// approximately: its entrance reflects less as the layer thickens in wavelengths, not as h falls at a fixed thickness
// (6.6e-3 at 1.6 peak wavelengths at h = 20 m, 6.0e-3 at 10 m), and its round trip absorbs 5.8 of the designed 6.9
// nepers.
struct LayerReflection {
  double wavelengths, entrance, wall;
};

// A VTI medium of these Thomsen parameters through the TTI step, the wave crossing its vertical axis (at v sqrt(1 + 2
// epsilon)); without one, the isotropic medium through the isotropic step.
struct Vti {
  double epsilon, delta;
};

template <class Exec>
LayerReflection layer_reflection(int d, const std::optional<Vti>& vti = {}) {
  const double h = 20.0, v = 2000.0, f0 = 16.0, c = vti ? v * std::sqrt(1 + 2 * vti->epsilon) : v;
  const int receiver = d + 15, edge = receiver + 11, source = edge - 1;
  std::vector<float> trace[2];
  wave::Setup s;
  for (int longer : {0, 1}) {
    s = box_setup(edge + d + (d + 8) * longer, 2 * d + 11, 2 * d + 11, h, float(v));
    if (vti) {
      s.anisotropy.epsilon.assign(s.velocity.size(), float(vti->epsilon));
      s.anisotropy.delta.assign(s.velocity.size(), float(vti->delta));
      s.anisotropy.source_zone = 0;  // the layer's reflections alone: the zone's change of epsilon reflects too
    }
    s.ndamp = d;
    s.f0 = f0;
    s.dt = 0.8 * wave::stable_dt(s);
    // Until the wave that crossed the layer, met the zero wall and crossed back has passed the receiver.
    s.steps = int(((2 * edge - source - receiver + 2 * d) * h / c + 2.5 / s.f0) / s.dt);
    s.sources = {grid_point(s, source, d + 5, d + 5)};
    s.receivers = {grid_point(s, receiver, d + 5, d + 5)};
    wave::Simulation<Exec> sim(s);
    sim.advance(s.steps);
    trace[longer] = sim.traces();
  }
  const double direct_path = (source - receiver) * h, image_path = (2 * edge - source - receiver) * h;
  const double wall_path = image_path + 2 * d * h;
  // The Ricker wavelet peaks 1/f0 after its arrival.
  const std::size_t split = std::size_t(((image_path + wall_path) / 2 / c + 1 / f0) / s.dt);
  double direct = 0, entrance = 0, wall = 0;
  for (std::size_t n = 0; n < trace[0].size(); ++n) {
    direct = std::max(direct, double(std::abs(trace[1][n])));
    (n < split ? entrance : wall) = std::max(n < split ? entrance : wall, double(std::abs(trace[0][n] - trace[1][n])));
  }
  return {d * h / (c / f0), entrance * image_path / direct_path / direct, wall * wall_path / direct_path / direct};
}

// The layer at 15, 20 and 30 points: both reflections fall as it thickens, and from `wavelengths` on the entrance is
// at most `entrance` and the round trip within [wall_low, wall_high].
template <class Exec>
void expect_layer_absorbs(const char* what, const std::optional<Vti>& vti, double wavelengths, double entrance,
                          double wall_low, double wall_high) {
  LayerReflection thinner{0, 1, 1};
  for (int d : {15, 20, 30}) {
    const LayerReflection r = layer_reflection<Exec>(d, vti);
    std::printf("%s, %d points (%.1f wavelengths): entrance reflects %.3e, wall return %.3e\n", what, d, r.wavelengths,
                r.entrance, r.wall);
    EXPECT_GT(r.entrance, 0.0) << d;
    EXPECT_LT(r.entrance, thinner.entrance) << d;
    EXPECT_LT(r.wall, thinner.wall) << d;
    if (r.wavelengths >= wavelengths) {
      EXPECT_LE(r.entrance, entrance) << d;
      EXPECT_LE(r.wall, wall_high) << d;
      EXPECT_GE(r.wall, wall_low) << d;
    }
    thinner = r;
  }
}

}  // namespace seis::test

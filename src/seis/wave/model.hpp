#pragma once
// Built-in velocity models (m/s, x fastest, then y, then z = depth).
#include <vector>

#include "seis/wave/subdomain.hpp"

namespace seis::wave {

// Each model of the whole grid, or of one part of it (the part's values, x fastest), computed alone.
std::vector<float> homogeneous_model(int nx, int ny, int nz, float velocity);
std::vector<float> homogeneous_model(const Subdomain& part, float velocity);

// Four flat layers thickening with depth (1500, 2000, 2600, 3200 m/s: water, sediments, rock) and an ellipsoidal
// 4500 m/s body (salt) below the centre, spanning a third of the grid.
std::vector<float> layered_model(int nx, int ny, int nz);
std::vector<float> layered_model(const Subdomain& part);

// Gardner's relation (Gardner, Gardner and Gregory, 1974): rho = 310 V^0.25 kg/m^3 (V in m/s) at every point of a
// velocity model: 1930 kg/m^3 at 1500 m/s, 2270 at 2900, 2540 at 4500.
std::vector<float> gardner_density(const std::vector<float>& velocity);

}  // namespace seis::wave

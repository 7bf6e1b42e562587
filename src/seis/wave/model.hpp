#pragma once
// Built-in velocity models (m/s, x fastest, then y, then z = depth).
#include <vector>

namespace seis::wave {

std::vector<float> homogeneous_model(int nx, int ny, int nz, float velocity);

// Four flat layers thickening with depth (1500, 2000, 2600, 3200 m/s: water, sediments, rock) and an ellipsoidal
// 4500 m/s body (salt) below the centre, spanning a third of the grid.
std::vector<float> layered_model(int nx, int ny, int nz);

}  // namespace seis::wave

// A forward shot through the operators: a homogeneous 2000 m/s model, a source and a receiver 200 m below it. The
// direct wave's peak must arrive after 200 m / 2000 m/s = 0.1 s plus the Ricker wavelet's delay 1 / f0.
#include <cmath>
#include <cstdio>

#include "seis/operators/acoustic.hpp"

int main() {
  seis::operators::start_runtime();
  int status = 1;
  {
    seis::wave::Grid grid;
    grid.nx = grid.ny = grid.nz = 48;
    grid.h = 20.0;
    grid.ndamp = 8;
    seis::wave::Medium medium;
    medium.velocity.assign(std::size_t(48) * 48 * 48, 2000.0f);
    seis::wave::Numerics numerics;
    numerics.steps = 200;
    const seis::operators::Acoustic ops(grid, medium, numerics);
    seis::wave::Acquisition shot;
    shot.sources = {{470.0, 470.0, 300.0}};
    shot.receivers = {{470.0, 470.0, 500.0}};
    shot.f0 = 10.0;
    const auto trace = ops.forward(shot);
    int at = 0;
    for (int n = 0; n < ops.setup().steps; ++n)
      if (std::abs(trace[std::size_t(n)]) > std::abs(trace[std::size_t(at)])) at = n;
    const double arrival = at * ops.setup().dt, expected = 200.0 / 2000.0 + 1.0 / shot.f0;
    std::printf("forward on %s: %d steps of %.3f ms; the direct wave peaks at %.4f s, expected %.4f s\n",
                ops.backend().c_str(), ops.setup().steps, ops.setup().dt * 1e3, arrival, expected);
    status = std::abs(arrival - expected) <= 2 * ops.setup().dt ? 0 : 1;
  }
  seis::operators::stop_runtime();
  return status;
}

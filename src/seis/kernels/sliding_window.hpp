#pragma once
// z from a register sliding window: each thread walks nw planes keeping 2R+1 values (vectors) in registers,
// loading one new plane per step (AMD seismic-stencil lab notes, z kernel; 2.5D register shifting). The same
// kernel walking rows (Walk::y) gives y: a warp's next load is the row after its last, and the y taps come from
// registers instead of 2R row loads through the caches (x + y walked the same way, x from the row's vector loads,
// ran slower than xy_fused: perf/NOTES.md 59).
#include "seis/kernels/tile_variants.hpp"

namespace seis {

template <class ExecSpace>
void register_sliding_window(std::vector<KernelVariant<ExecSpace>>& registry) {
  using Z = Sources<Operator::d2z, YSource::global, ZSource::window, walk_prefetch>;
  registry.push_back(tile_variant<ExecSpace, Z, DefaultOccupancy, 1>(
      "z_window", "sliding_window", "d2/dz2 from a register window of 2R+1 planes, nw planes per thread",
      TileShape{64, 4, 16}));
  // 64-bit vectors by default: faster than 128-bit ones in 16 of 18 H100 cases (R = 1, 4, 8; 256^3, 512^3,
  // 509x497x251), up to 9 points of the copy (perf/NOTES.md 61).
  registry.push_back(tile_variant<ExecSpace, Z, DefaultOccupancy, 2, 4, 1>(
      "z_window_vec", "sliding_window", "d2/dz2 from a register window of 2R+1 vectors, nw planes per thread",
      TileShape{32, 4, 16}));
  // The y walk's hint one plane (row) ahead: 92.2-92.5 -> 92.6-93.2% of the copy at R = 4, 512^3, level at R = 8
  // and on other grids; three ahead lost 0.6 (perf/NOTES.md 68).
  using Y = Sources<Operator::d2z, YSource::global, ZSource::window, 1>;
  registry.push_back(tile_variant<ExecSpace, Y, DefaultOccupancy, 2, 4, 1>(
      "y_window_vec", "sliding_window", "d2/dy2 from a register window of 2R+1 vectors, nw rows per thread",
      TileShape{32, 4, 16}, Walk::y));
}

}  // namespace seis

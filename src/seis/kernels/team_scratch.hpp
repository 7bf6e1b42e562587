#pragma once
// y from team scratch (LDS / shared memory): a tile of (ty + 2R) rows of vectors staged once per plane, the
// y-stencil read from scratch (AMD seismic-stencil lab notes, the LDS kernel); and the fused xy kernel that also
// takes x from the staged row into registers, in one pass.
#include "seis/kernels/tile_variants.hpp"

namespace seis {

template <class ExecSpace>
void register_team_scratch(std::vector<KernelVariant<ExecSpace>>& registry) {
  using Y = Sources<Operator::d2y, YSource::scratch, ZSource::global, walk_prefetch>;
  using XY = Sources<Operator::d2xy, YSource::scratch, ZSource::global, walk_prefetch>;
  registry.push_back(tile_variant<ExecSpace, Y, DefaultOccupancy, 4, 2, 1>(
      "y_scratch", "scratch", "d2/dy2 from a (ty+2R)-row tile staged in team scratch, vectors (AMD lab notes, LDS)",
      TileShape{32, 8, 8}));
  // 16 x 16: 1.69 staged vectors per output against 32 x 8's 2.13 (the kernel is L2-bound); 1.2-1.6 points
  // faster at 512^3, 1024^3 and 509x497x251 on the H100, where larger teams lost (perf/NOTES.md 67, 68).
  registry.push_back(tile_variant<ExecSpace, XY, DefaultOccupancy, 4, 2, 1>(
      "xy_fused", "scratch", "d2/dx2 + d2/dy2 in one pass: x from registers, y from team scratch (AMD lab notes)",
      TileShape{16, 16, 8}));
  // Four rows per thread: a 16 x 32 tile (1.5 staged vectors per output) from 128 threads, each staged row read
  // once for the y taps of all four; short walks.
  using XYRows = Sources<Operator::d2xy, YSource::scratch, ZSource::global, walk_prefetch, 4>;
  registry.push_back(tile_variant<ExecSpace, XYRows, DefaultOccupancy, 4, 2, 1>(
      "xy_fused_rows", "scratch",
      "xy_fused with four rows per thread (register blocking in y): a taller tile, fewer threads",
      TileShape{16, 32, 4}));
}

}  // namespace seis

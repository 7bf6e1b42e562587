#pragma once
// The headline one-pass Laplacian: x from registers, y from a plane staged in team scratch, z from the register
// sliding window, VEC-wide accesses, output by (run-time optional) nontemporal stores. Every input point is read
// from memory once per tile (plus the tile's halo), every output written once (AMD seismic-stencil lab notes,
// fused kernel; 2.5D streaming with shared planes and register shifting). xyz_fused_cached drops the staging and
// its barriers and lets the caches serve the x and y neighbours. xyz_fused_async stages whole planes (halo
// included) several planes ahead without registers: cp.async on CUDA, where the copy engine keeps more bytes in
// flight per SM than registers can. xyz_fused_rows gives each thread two rows of its column (register blocking in
// y), so a taller tile re-reads less halo from L2 without more threads.
#include "seis/kernels/tile_variants.hpp"

namespace seis {

template <class ExecSpace>
void register_fused_xyz(std::vector<KernelVariant<ExecSpace>>& registry) {
  using XYZ = Sources<Operator::laplacian, YSource::scratch, ZSource::window, walk_prefetch>;
  // The occupancy variant asks for no prefetches: with them it ran 0.4 (R = 4) and 3 (R = 8) points slower on the
  // H100 (perf/NOTES.md 65).
  using XYZOccupancy = Sources<Operator::laplacian, YSource::scratch, ZSource::window>;
  using XYZRing = Sources<Operator::laplacian, YSource::ring, ZSource::window>;
  using XYZCached = Sources<Operator::laplacian, YSource::global, ZSource::window, walk_prefetch>;
  registry.push_back(tile_variant<ExecSpace, XYZ, DefaultOccupancy, 4, 2, 1>(
      "xyz_fused", "fused", "Laplacian in one pass: x registers, y team scratch, z register window, vectors",
      TileShape{32, 8, 32}));
  registry.push_back(tile_variant<ExecSpace, XYZOccupancy, HighOccupancy, 4, 2, 1>(
      "xyz_fused_occupancy", "fused",
      "xyz_fused with launch bounds for 2-3 teams per SM: fewer registers, more loads in flight",
      TileShape{32, 8, 32}));
  registry.push_back(tile_variant<ExecSpace, XYZRing, DefaultOccupancy, 4, 2, 1>(
      "xyz_fused_async", "fused",
      "xyz_fused with planes staged by asynchronous copies (cp.async) into a scratch ring, the window's front from it",
      TileShape{16, 16, 32}));
  registry.push_back(tile_variant<ExecSpace, XYZRing, HighOccupancy, 4, 2, 1>(
      "xyz_fused_async_occupancy", "fused", "xyz_fused_async with xyz_fused_occupancy's launch bounds",
      TileShape{16, 16, 32}));
  // Two rows per thread, each with its own window: a 16 x 16 tile from 128 threads (1.69 staged vectors per
  // output against 32 x 8's 2.13) at three teams per SM.
  using XYZRows = Sources<Operator::laplacian, YSource::scratch, ZSource::window, walk_prefetch, 2>;
  registry.push_back(tile_variant<ExecSpace, XYZRows, DefaultOccupancy, 4, 2, 1>(
      "xyz_fused_rows", "fused", "xyz_fused with two rows per thread (register blocking in y), a z window each",
      TileShape{16, 16, 16}));
  registry.push_back(tile_variant<ExecSpace, XYZCached, DefaultOccupancy, 4, 2, 1>(
      "xyz_fused_cached", "fused",
      "Laplacian in one pass without scratch or barriers: x and y vector loads served by L1/L2, z register window",
      TileShape{32, 4, 16}));
}

}  // namespace seis

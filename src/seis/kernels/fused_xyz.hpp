#pragma once
// The headline one-pass Laplacian: x from registers, y from a plane staged in team scratch, z from the register
// sliding window, VEC-wide accesses, output by (run-time optional) nontemporal stores. Every input point is read
// from memory once per tile (plus the tile's halo), every output written once (AMD seismic-stencil lab notes,
// fused kernel; 2.5D streaming with shared planes and register shifting).
#include "seis/kernels/tile_variants.hpp"

namespace seis {

template <class ExecSpace>
void register_fused_xyz(std::vector<KernelVariant<ExecSpace>>& registry) {
  using XYZ = Sources<Operator::laplacian, YSource::scratch, ZSource::window>;
  registry.push_back(tile_variant<ExecSpace, XYZ, 0, 4, 2, 1>(
      "xyz_fused", "fused", "Laplacian in one pass: x registers, y team scratch, z register window, vectors",
      TileShape{32, 8, 16}));
}

}  // namespace seis

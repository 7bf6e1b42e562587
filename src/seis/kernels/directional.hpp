#pragma once
// Directional second derivatives, the "three-pass" approach of AMD's seismic-stencil lab notes: one kernel per
// axis, each reading 2R+1 neighbours along it. Baselines read one float per thread; the vectorised x and y
// kernels move VEC = 1, 2, 4 floats (32-, 64-, 128-bit accesses) per thread, x from a register array of 2R+VEC
// values (rounded to whole vectors).
#include "seis/kernels/tile_variants.hpp"

namespace seis {

template <class ExecSpace>
void register_directional(std::vector<KernelVariant<ExecSpace>>& registry) {
  using X = Sources<Operator::d2x, YSource::global, ZSource::global, walk_prefetch>;
  using Y = Sources<Operator::d2y, YSource::global, ZSource::global>;
  using Z = Sources<Operator::d2z, YSource::global, ZSource::global>;
  const TileShape scalar_tile{64, 4, 1}, vector_tile{32, 4, 1};
  // x_vec walks four planes per thread with L2 hints two planes ahead: 93.8-94.3% of the H100's copy at R = 4,
  // 92.1-92.9% at R = 8, against 88.2% and 83.0% for one plane per thread (512^3, perf/NOTES.md 66).
  const TileShape x_walk_tile{64, 4, 4};
  registry.push_back(tile_variant<ExecSpace, X, DefaultOccupancy, 1>(
      "x", "directional", "d2/dx2, one output per thread, 2R+1 scalar loads (AMD lab notes, x baseline)", scalar_tile));
  registry.push_back(tile_variant<ExecSpace, Y, DefaultOccupancy, 1>(
      "y", "directional", "d2/dy2, one output per thread, 2R+1 scalar loads (AMD lab notes, y baseline)", scalar_tile));
  registry.push_back(tile_variant<ExecSpace, Z, DefaultOccupancy, 1>(
      "z", "directional", "d2/dz2, one output per thread, 2R+1 scalar loads (AMD lab notes, z baseline)", scalar_tile));
  registry.push_back(tile_variant<ExecSpace, X, DefaultOccupancy, 4, 2, 1>(
      "x_vec", "directional", "d2/dx2, VEC outputs per thread from a register array of vector loads (AMD lab notes)",
      x_walk_tile));
  registry.push_back(tile_variant<ExecSpace, Y, DefaultOccupancy, 4, 2, 1>(
      "y_vec", "directional", "d2/dy2, VEC outputs per thread, 2R+1 vector loads (AMD lab notes)", vector_tile));
}

}  // namespace seis

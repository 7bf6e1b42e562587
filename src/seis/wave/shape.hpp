#pragma once
// The kernel shapes of the wave step (`seis-wave --kernel`): the tile engine of this library, and the code shapes
// that the CPE'21 paper compares (its Minimod artifact's kernels), each run with any domain strategy and radius:
//   3D blocking: a tx x ty x tz block, a thread per column of up to four points along z; u from global memory
//     (gmem) or staged with its halo in team scratch (smem_u), or the PML's eta tile staged in scratch, its halo
//     fetched by one conditional (smem_eta_1) or three (smem_eta_3);
//   2.5D streaming along z with a tx x ty team, x and y neighbours from the plane staged in scratch, z from
//     the 2R + 1 planes in scratch (st_smem), a register window shifted every plane (st_reg_shft), fixed
//     registers in a loop unrolled 2R + 1 times (st_reg_fixed), or the semi-stencil (st_semi: each plane adds
//     the forward half of R points' z sums as it arrives, R + 1 registers of u and of partial sums); each also
//     double-buffered (_db: the next plane staged while this one is computed, one barrier per plane);
//   3.5D (two time steps per launch, unified strategy only): a team per tile walks z, computing step n + 1 on the
//     tile widened by R on each side (the redundant halo work) into a ring of 2R + 1 planes in scratch, and step
//     n + 2 on the tile from that ring; u of step n from global memory (st_gmem_35d) or a shifted register window
//     and the staged plane (st_reg_shft_35d). The fields of steps n + 1 and n + 2 go to two spare fields.
// Host code (no Kokkos): the names, families and default tiles.
#include <string>

namespace seis::wave {

enum class Shape {
  tile,
  gmem,
  smem_u,
  smem_eta_1,
  smem_eta_3,
  st_smem,
  st_smem_db,
  st_reg_shft,
  st_reg_shft_db,
  st_reg_fixed,
  st_reg_fixed_db,
  st_semi,
  st_semi_db,
  st_gmem_35d,
  st_reg_shft_35d,
};

enum class ShapeFamily { tile, blocked, streaming, temporal };

// Planes a streaming team walks on GPUs by default. The paper's kernels walk the whole axis: at 512^3 a grid of
// 32 x 16 tiles is then 1.6 waves of teams on an H100 and an x slab's launch 29 teams (perf/NOTES.md 23); 64
// planes cost 2R / 64 of extra plane loads, from L2.
inline constexpr int streaming_planes = 64;

struct ShapeInfo {
  Shape shape;
  const char* name;
  ShapeFamily family;
  // Default GPU block (tile_z: planes of a 3D block; 0: streaming_planes; -1: the whole depth). 3.5D: the tile of
  // step n + 2, its team R wider on each side. The 3D blocking defaults are the fastest measured on the H100 (512^3,
  // R = 4): smem_eta at the paper's 8x8x8 ran 2.76 ms (seven), at 32x8x4 1.73; smem_u unified 2.17 at the paper's
  // 32x4x4, 1.96 at 32x8x4 (perf/NOTES.md 43, 50). gmem keeps 32x4x4, its best.
  int tile_x, tile_y, tile_z;
  const char* summary;
};

inline constexpr ShapeInfo shape_table[] = {
    {Shape::tile, "tile", ShapeFamily::tile, 32, 8, 32,
     "the library's fused tile engine: 4-float vectors, y in scratch, z register window (default)"},
    {Shape::gmem, "gmem", ShapeFamily::blocked, 32, 4, 4, "3D blocking, every neighbour from global memory"},
    {Shape::smem_u, "smem_u", ShapeFamily::blocked, 32, 8, 4, "3D blocking, the u block and its halo in scratch"},
    {Shape::smem_eta_1, "smem_eta_1", ShapeFamily::blocked, 32, 8, 4,
     "3D blocking, the PML's eta block in scratch, halo by one conditional"},
    {Shape::smem_eta_3, "smem_eta_3", ShapeFamily::blocked, 32, 8, 4,
     "3D blocking, the PML's eta block in scratch, halo by three conditionals"},
    {Shape::st_smem, "st_smem", ShapeFamily::streaming, 16, 16, 0, "2.5D streaming, the 2R + 1 planes in scratch"},
    {Shape::st_smem_db, "st_smem_db", ShapeFamily::streaming, 16, 16, 0, "st_smem, double-buffered"},
    {Shape::st_reg_shft, "st_reg_shft", ShapeFamily::streaming, 32, 16, 0,
     "2.5D streaming, z in a shifted register window, the plane in scratch"},
    {Shape::st_reg_shft_db, "st_reg_shft_db", ShapeFamily::streaming, 32, 16, 0, "st_reg_shft, double-buffered"},
    {Shape::st_reg_fixed, "st_reg_fixed", ShapeFamily::streaming, 32, 16, 0,
     "2.5D streaming, z in fixed registers (loop unrolled 2R + 1 times)"},
    {Shape::st_reg_fixed_db, "st_reg_fixed_db", ShapeFamily::streaming, 32, 16, 0, "st_reg_fixed, double-buffered"},
    {Shape::st_semi, "st_semi", ShapeFamily::streaming, 32, 16, 0,
     "2.5D streaming, semi-stencil along z (forward and backward halves)"},
    {Shape::st_semi_db, "st_semi_db", ShapeFamily::streaming, 32, 16, 0, "st_semi, double-buffered"},
    {Shape::st_gmem_35d, "st_gmem_35d", ShapeFamily::temporal, 16, 16, -1,
     "3.5D: two steps per launch, step n + 1 on the widened tile from global memory into a ring in scratch"},
    {Shape::st_reg_shft_35d, "st_reg_shft_35d", ShapeFamily::temporal, 16, 16, -1,
     "3.5D: two steps per launch, step n + 1 from a shifted register window and the staged plane"},
};

const ShapeInfo& info(Shape s);
// The table's entry of a shape, nullptr if none (info() refuses that; in a constant expression the dereference
// does not compile).
constexpr const ShapeInfo* find_shape(Shape s) {
  for (const ShapeInfo& i : shape_table)
    if (i.shape == s) return &i;
  return nullptr;
}
const char* to_string(Shape s);
Shape parse_shape(const std::string& text);  // a name of shape_table
std::string shape_names();                   // "tile, gmem, ..."
// The shape that runs a single step of a 3.5D shape (a run's odd last step): st_gmem_35d's is gmem,
// st_reg_shft_35d's st_reg_shft; any other shape is its own.
Shape single_step_shape(Shape s);
int steps_per_launch(Shape s);  // 2 for the 3.5D shapes

}  // namespace seis::wave

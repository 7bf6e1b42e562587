#pragma once
// The host shape of every tile-engine variant. A GPU tile (one thread per vector column, a register window, a
// staged plane, barriers) makes no sense for an OS thread, so on host backends the engine's launcher runs this
// instead; only the variant's operator and epilogue carry over, not where a GPU would keep each axis' neighbours.
// A work item is a block of rows (y) over a run of planes (z): it walks the planes and, in each, its rows, x in
// chunks of host_width floats whose lane loops the compiler turns into packed FMAs. The 2R + 1 planes of a block
// that the z taps touch stay in the core's L2 (host_blocks keeps them under host_block_bytes), so each input float
// comes from memory about once, like the GPU's 2.5D streaming.
#include <algorithm>

#include "seis/core/coefficients.hpp"
#include "seis/core/memory_ops.hpp"
#include "seis/kernels/launch_options.hpp"
#include "seis/kernels/team_launch.hpp"

namespace seis {

// 8 floats: one AVX2 register (two SSE ones); the lane loops below are its unit of vectorisation.
inline constexpr int host_width = 8;
// A block's z working set, (2R + 1) planes of its rows: a quarter to half of a typical 0.5-1 MiB per-core L2
// (perf/NOTES.md: 256^3 measured best between 16 and 32 rows of 272 floats at R = 4).
inline constexpr std::size_t host_block_bytes = std::size_t(256) * 1024;

// The +-1 neighbours of VEC points along each axis (the epilogues' wants_neighbours).
template <int VEC>
struct Nearest {
  Pack<VEC> x_minus, x_plus, y_minus, y_plus, z_minus, z_plus;
};

struct HostBlocks {
  int rows, planes, blocks_y, blocks_z;
  int items() const { return blocks_y * blocks_z; }
};

// Rows per block from the L2 budget (or the options' tile_y), planes per item (or the options' window) so that
// every thread gets about eight items.
inline HostBlocks host_blocks(const FieldLayout& L, const Box& box, int radius, const LaunchOptions& o,
                              int concurrency) {
  const int ny = std::max(box.y1 - box.y0, 1), nz = std::max(box.z1 - box.z0, 1);
  const std::size_t row_bytes = std::size_t(L.ldx) * sizeof(float) * std::size_t(2 * radius + 1);
  int rows = o.tile_y > 0 ? o.tile_y : static_cast<int>(std::max<std::size_t>(host_block_bytes / row_bytes, 1));
  rows = std::min(rows, ny);
  const int blocks_y = (ny + rows - 1) / rows;
  int planes = o.window;
  if (planes <= 0) {
    const int wanted = std::max(8 * concurrency / blocks_y, 1);
    planes = (nz + wanted - 1) / wanted;
  }
  planes = std::min(planes, nz);
  return {rows, planes, blocks_y, (nz + planes - 1) / planes};
}

template <int R, Operator Op, class Epilogue>
struct HostRows {
  static constexpr int W = host_width;
  using Fetched = typename Epilogue::template Ahead<W>;

  const float* in;
  FieldLayout L;
  DeviceWeights<R> w;
  Box box;
  HostBlocks blocks;
  Epilogue epilogue;

  void operator()(int item) const {
    const int by = item % blocks.blocks_y, bz = item / blocks.blocks_y;
    const int y_begin = box.y0 + by * blocks.rows, y_end = std::min(y_begin + blocks.rows, box.y1);
    const int z_begin = box.z0 + bz * blocks.planes, z_end = std::min(z_begin + blocks.planes, box.z1);
    // Whole chunks [x_full, x_tail) give the epilogue constant lane bounds, so its partial-store branch folds
    // away; the box's ragged ends (at most one chunk each) take the general path. Chunks past nx read the row's
    // padding and the next row's lead (never past the allocation: halo rows follow every interior row).
    const int x_head = box.x0 / W * W, x_full = (box.x0 + W - 1) / W * W;
    const int x_tail = std::max(box.x1 / W * W, x_full);
    for (int z = z_begin; z < z_end; ++z)
      for (int y = y_begin; y < y_end; ++y) {
        const float* row = in + L.offset(0, y, z);
        if (x_head < x_full) chunk(row, x_head, y, z, box.x0 - x_head, std::min(box.x1 - x_head, W));
        for (int x = x_full; x < x_tail; x += W) chunk(row, x, y, z, 0, W);
        if (x_tail < box.x1) chunk(row, x_tail, y, z, 0, box.x1 - x_tail);
      }
  }

  // Lanes [first, last) of the W points from x of row (y, z) go to the epilogue.
  KOKKOS_FORCEINLINE_FUNCTION void chunk(const float* row, int x, int y, int z, int first, int last) const {
    const float* c = row + x;
    const std::ptrdiff_t ldx = L.ldx, plane = L.plane;
    // One partial sum per axis: three independent FMA chains instead of one 3R-long dependent chain.
    Pack<W> center;
    float acc[W], ay[W], az[W];
    for (int l = 0; l < W; ++l) {
      center.lane[l] = c[l];
      acc[l] = w.center * c[l];
      ay[l] = 0.0f;
      az[l] = 0.0f;
    }
    for (int m = 1; m <= R; ++m)
      for (int l = 0; l < W; ++l) {
        if constexpr (uses_x(Op)) acc[l] += w.x[m] * (c[l - m] + c[l + m]);
        if constexpr (uses_y(Op)) ay[l] += w.y[m] * (c[l - m * ldx] + c[l + m * ldx]);
        if constexpr (uses_z(Op)) az[l] += w.z[m] * (c[l - m * plane] + c[l + m * plane]);
      }
    for (int l = 0; l < W; ++l) acc[l] += ay[l] + az[l];
    Nearest<W> near{};
    if constexpr (Epilogue::wants_neighbours) {
      for (int l = 0; l < W; ++l) {
        near.x_minus.lane[l] = c[l - 1];
        near.x_plus.lane[l] = c[l + 1];
        near.y_minus.lane[l] = c[l - ldx];
        near.y_plus.lane[l] = c[l + ldx];
        near.z_minus.lane[l] = c[l - plane];
        near.z_plus.lane[l] = c[l + plane];
      }
    }
    const Fetched ahead = epilogue.template fetch<W>(L, x, y, z, first, last);
    epilogue(L, x, y, z, center, near, acc, first, last, ahead);
  }
};

}  // namespace seis

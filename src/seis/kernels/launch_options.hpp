#pragma once
// Run-time parameters of a kernel launch; 0 means "the variant's default for this backend".
namespace seis {

struct LaunchOptions {
  int vector_width = 0;      // VEC: floats per thread access (1, 2, 4)
  int window = 0;            // nw: planes one thread walks in z (sliding-window kernels)
  int tile_x = 0;            // threads (or vectors) per team along x
  int tile_y = 0;            // rows per team along y
  int stages = 0;            // planes in a ring of team scratch filled asynchronously (ring kernels)
  bool nontemporal = false;  // streaming stores for the output
};

}  // namespace seis

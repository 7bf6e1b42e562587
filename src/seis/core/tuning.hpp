#pragma once
// Automatic tuning of a kernel's launch parameters: a coordinate search over VEC, tile, nw and ring stages that
// measures each candidate with a caller-supplied timer. Plain C++: the timer does the Kokkos work (seis-bench times
// a registry variant, seis-wave a simulation step), the cache of winners lives in seis/io (tuning_cache.hpp).
#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "seis/kernels/launch_options.hpp"

namespace seis::tuning {

// The values a search may give each launch parameter; an empty list leaves the start's value alone.
struct Space {
  std::vector<int> vector_widths, windows, stages;
  std::vector<std::array<int, 2>> tiles;
};

// The default space of a kernel: its VECs; on GPUs tiles of 64 to 512 threads, windows 8 to 128 planes and, for ring
// kernels, 1 to 5 planes in flight; on hosts rows per block (tile_y) and windows (the row engine's block shape).
Space default_space(const std::vector<int>& vector_widths, bool gpu, bool ring, int radius);

struct Trial {
  LaunchOptions options;
  double seconds = 0;   // 0 when refused
  std::string refused;  // why the kernel cannot run these options (team or scratch too large, ...)
};

struct Result {
  LaunchOptions start, best;
  double start_seconds = 0, best_seconds = 0;
  std::vector<Trial> trials;  // every candidate measured or refused, in order
};

// Seconds per launch of the kernel with these options; throws seis::InvalidArgument where they cannot run.
using Measure = std::function<double(const LaunchOptions&)>;

// From `start`, each parameter in turn takes the fastest of its values with the others fixed; rounds repeat until
// one changes nothing (at most `max_rounds`). Every distinct candidate is measured once. Throws
// seis::InvalidArgument if the start itself cannot run.
Result search(const Space& space, const LaunchOptions& start, const Measure& measure, int max_rounds = 3);

// Grids of about the same size share a tuning: the class is the cube edge of the interior's point count rounded to
// a power of two in log scale ("n512" for 362^3 .. 724^3).
std::string grid_class(std::size_t interior_points);

// "VEC 4, tile 16x16, nw 32, stages 8" (0: the kernel's default).
std::string describe(const LaunchOptions& options);

}  // namespace seis::tuning

#include "seis/core/tuning.hpp"

#include <cmath>
#include <map>
#include <sstream>
#include <tuple>

#include "seis/core/error.hpp"

namespace seis::tuning {

Space default_space(const std::vector<int>& vector_widths, bool gpu, bool ring, int radius) {
  Space space;
  space.vector_widths = vector_widths;
  // 12 and 24 between the powers of two: y_window_vec's best at R = 4, 512^3 is 10-14 rows (perf/NOTES.md 79).
  space.windows = {8, 12, 16, 24, 32, 64, 128};
  if (gpu) {
    space.tiles = {{8, 8}, {16, 4}, {16, 8}, {32, 4}, {8, 32}, {16, 16}, {32, 8}, {64, 4}, {16, 32}, {32, 16}};
    if (ring)
      for (int in_flight = 1; in_flight <= 5; ++in_flight) space.stages.push_back(radius + 1 + in_flight);
  } else {
    // The host row engine reads only the tile's rows (a block of rows per task).
    space.tiles = {{1, 2}, {1, 4}, {1, 8}, {1, 16}, {1, 32}};
  }
  return space;
}

namespace {
auto key(const LaunchOptions& o) {
  return std::make_tuple(o.vector_width, o.window, o.tile_x, o.tile_y, o.stages, o.nontemporal);
}
}  // namespace

Result search(const Space& space, const LaunchOptions& start, const Measure& measure, int max_rounds) {
  Result result;
  result.start = start;
  std::map<decltype(key(start)), double> seen;  // seconds, or 0 where refused
  const auto time = [&](const LaunchOptions& o) {
    const auto k = key(o);
    if (const auto found = seen.find(k); found != seen.end()) return found->second;
    Trial trial{o, 0, {}};
    try {
      trial.seconds = measure(o);
    } catch (const InvalidArgument& e) {
      trial.refused = e.what();
    }
    result.trials.push_back(trial);
    seen[k] = trial.seconds;
    return trial.seconds;
  };

  result.start_seconds = time(start);
  require(result.start_seconds > 0, "tuning: the starting point cannot run: ", result.trials.front().refused);
  result.best = start;
  result.best_seconds = result.start_seconds;

  // One coordinate at a time: set(o, i) gives o the i-th value of the coordinate.
  using Setter = std::function<void(LaunchOptions&, std::size_t)>;
  const std::vector<std::pair<std::size_t, Setter>> coordinates = {
      {space.vector_widths.size(), [&](LaunchOptions& o, std::size_t i) { o.vector_width = space.vector_widths[i]; }},
      {space.tiles.size(),
       [&](LaunchOptions& o, std::size_t i) {
         o.tile_x = space.tiles[i][0];
         o.tile_y = space.tiles[i][1];
       }},
      {space.windows.size(), [&](LaunchOptions& o, std::size_t i) { o.window = space.windows[i]; }},
      {space.stages.size(), [&](LaunchOptions& o, std::size_t i) { o.stages = space.stages[i]; }},
  };
  for (int round = 0; round < max_rounds; ++round) {
    bool changed = false;
    for (const auto& [count, set] : coordinates)
      for (std::size_t i = 0; i < count; ++i) {
        LaunchOptions candidate = result.best;
        set(candidate, i);
        const double seconds = time(candidate);
        if (seconds > 0 && seconds < result.best_seconds) {
          result.best = candidate;
          result.best_seconds = seconds;
          changed = true;
        }
      }
    if (!changed) break;
  }
  return result;
}

std::string grid_class(std::size_t interior_points) {
  const double edge = std::cbrt(static_cast<double>(interior_points));
  const int power = static_cast<int>(std::lround(std::log2(edge > 1 ? edge : 1)));
  return "n" + std::to_string(1L << power);
}

std::string describe(const LaunchOptions& o) {
  std::ostringstream text;
  const auto value = [](int v) { return v ? std::to_string(v) : std::string("default"); };
  text << "VEC " << value(o.vector_width) << ", tile "
       << (o.tile_x ? std::to_string(o.tile_x) + "x" + std::to_string(o.tile_y) : std::string("default")) << ", nw "
       << value(o.window) << ", stages " << value(o.stages);
  return text.str();
}

}  // namespace seis::tuning

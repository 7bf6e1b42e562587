#pragma once
// Plain data shared by the benchmark's Kokkos side (bench_runner.cpp) and its host-only side (CLI, JSON, CSV,
// table in bench_io.cpp), so that no CLI or JSON header is compiled by nvcc or hipcc.
#include <array>
#include <string>
#include <vector>

namespace seis::bench {

enum class Verify { automatic, always, never };

// The larger of 64 MB and the host's last-level cache, in MB (bench_runner.cpp).
double default_cache_mb();

struct Config {
  std::vector<std::string> kernel_patterns{"*"};
  std::vector<int> radii{4};
  std::vector<std::array<int, 3>> grids{{{128, 128, 128}}};
  std::vector<int> vector_widths;  // empty: each variant's default
  std::vector<int> windows;        // empty: each variant's default
  std::vector<int> stages;         // empty: each ring kernel's default (other kernels take none)
  std::vector<std::array<int, 2>> tiles;
  std::vector<int> nontemporal{0};
  int samples = 20;  // timed samples per case
  int batch = 5;     // launches per timed sample (amortises the fence)
  int warmup = 3;    // untimed launches first
  Verify verify = Verify::automatic;
  // Rotate among input buffers until their total exceeds twice this: by default the larger of 64 MB (a GPU's L2 and
  // more) and the host's last-level cache (a server's reaches 256 MB or more, which a 64 MB rotation left warm).
  double cache_mb = default_cache_mb();
  std::string json_path, csv_path;
  bool list = false;
  bool quiet = false;
  bool tune = false;         // search each default case's launch options, cache and report the winner
  bool use_tuned = true;     // default cases run with the cached winner of their key, where there is one
  std::string tuning_cache;  // empty: seis::io::default_tuning_cache_path()
};

struct Timing {
  double median_s = 0, min_s = 0, max_s = 0, p10_s = 0, p90_s = 0;
};

struct CaseResult {
  std::string kernel, family, op;
  int radius = 0, nx = 0, ny = 0, nz = 0;
  int vector_width = 0, window = 0, tile_x = 0, tile_y = 0, stages = 0;
  bool nontemporal = false;
  std::string tuning;  // "" (options as asked), "default" / "tuned" (a --tune pair), "cached" (a cached winner)
  int buffers = 1;
  Timing time;
  double bytes = 0;          // compulsory bytes per application: one read + one write of the interior
  double flops = 0;          // per application
  double effective_gbs = 0;  // bytes / median time
  double gpts = 0, gflops = 0;
  double copy_gbs = 0;  // tuned vector copy on the same grid, same run
  double percent_of_copy = 0;
  std::string verified;        // "pass", "FAIL", "skipped"
  double max_error_ratio = 0;  // max |out - ref| / tolerance (< 1 passes)
  std::string worst_point;     // where that maximum is, with the two values
};

// A case of a sweep that cannot run here (team or scratch too large, VEC or radius not supported), and why.
struct SkippedCase {
  std::string kernel;
  int radius = 0, nx = 0, ny = 0, nz = 0;
  int vector_width = 0, window = 0, tile_x = 0, tile_y = 0, stages = 0;
  std::string reason;
};

// One --tune search: where it started, what won, every candidate.
struct TuningRun {
  std::string kernel, key;
  int radius = 0, nx = 0, ny = 0, nz = 0;
  std::string start, best;  // seis::tuning::describe
  double start_s = 0, best_s = 0;
  struct Candidate {
    std::string options;
    double seconds = 0;
    std::string refused;
  };
  std::vector<Candidate> candidates;
};

struct CopyResult {
  int nx = 0, ny = 0, nz = 0;
  double bytes = 0;
  Timing vector_copy, deep_copy;
  double vector_copy_gbs = 0, deep_copy_gbs = 0;
};

struct RunInfo {
  std::string device, backend, kokkos_version, kokkos_configuration, compiler, commit, date, command_line;
  std::string thread_placement;  // OMP_PROC_BIND and OMP_PLACES as the run saw them (host backends)
  bool dirty = false;
};

struct Report {
  RunInfo info;
  Config config;
  std::vector<CopyResult> copies;
  std::vector<CaseResult> cases;
  std::vector<SkippedCase> skipped;
  std::vector<TuningRun> tuning;
  std::string tuning_cache;  // the file read or written
};

struct VariantInfo {
  std::string name, family, op, description;
  int min_radius = 1, max_radius = 8;
  std::vector<int> vector_widths;
};

}  // namespace seis::bench

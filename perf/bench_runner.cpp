#include "bench_runner.hpp"

#include <fnmatch.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "seis/core/compat.hpp"
#include "seis/core/error.hpp"
#include "seis/core/tuning.hpp"
#include "seis/io/tuning_cache.hpp"
#include "seis/kernels/copy.hpp"
#include "seis/kernels/registry.hpp"
#include "seis/kernels/team_launch.hpp"
#include "seis/reference/star_stencil.hpp"
#include "seis_build_info.hpp"

namespace seis::bench {

double default_cache_mb() { return std::max(64.0, double(compat::last_level_cache_bytes()) / 1e6); }

namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using Memory = Exec::memory_space;
using DeviceField = Field<Memory>;

using compat::available_memory_bytes;

// Untimed warm-up, then `samples` timed samples of `batch` launches each, fenced before and after.
template <class Launch>
Timing time_launches(const Config& config, Launch&& launch) {
  for (int n = 0; n < config.warmup; ++n) launch(n);
  Kokkos::fence();
  std::vector<double> seconds;
  int launches = 0;
  for (int s = 0; s < config.samples; ++s) {
    Kokkos::fence();
    const auto start = std::chrono::steady_clock::now();
    for (int b = 0; b < config.batch; ++b) launch(launches++);
    Kokkos::fence();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / config.batch);
  }
  std::sort(seconds.begin(), seconds.end());
  const auto at = [&](double q) { return seconds[static_cast<std::size_t>(q * (seconds.size() - 1) + 0.5)]; };
  return Timing{at(0.5), seconds.front(), seconds.back(), at(0.1), at(0.9)};
}

// Enough (in, out) pairs that one round over them exceeds twice the last-level cache, so that repeated
// applications read from memory, not from cache.
int buffer_pairs(const FieldLayout& layout, double cache_mb) {
  const double pair_bytes = 2.0 * layout.size * sizeof(float);
  return static_cast<int>(std::clamp(std::ceil(2.0 * cache_mb * 1e6 / pair_bytes), 1.0, 1024.0));
}

double flops_per_point(Operator op, int radius) {
  // Per axis and offset m: one add of the symmetric pair, one multiply-add (2 flops); plus the centre multiply.
  return 1.0 + 3.0 * axis_count(op) * radius;
}

bool matches(const std::string& name, const std::vector<std::string>& patterns) {
  return std::any_of(patterns.begin(), patterns.end(),
                     [&](const std::string& p) { return fnmatch(p.c_str(), name.c_str(), 0) == 0; });
}

struct PlannedCase {
  const KernelVariant<Exec>* variant;
  int radius;
  std::array<int, 3> grid;
  LaunchOptions options;
};

template <class T>
std::vector<T> or_default(const std::vector<T>& values, T fallback) {
  return values.empty() ? std::vector<T>{fallback} : values;
}

SkippedCase skipped_case(const PlannedCase& c, const std::string& reason) {
  const auto& o = c.options;
  return {c.variant->name, c.radius, c.grid[0], c.grid[1], c.grid[2], o.vector_width,
          o.window,        o.tile_x, o.tile_y,  o.stages,  reason};
}

// The cases to run; cases the variant's limits refuse go to `skipped` with the reason, so that one infeasible
// point of a sweep does not stop the others. A run with nothing feasible is refused with the first reason.
std::vector<PlannedCase> plan(const Config& config, std::vector<SkippedCase>& skipped) {
  std::vector<PlannedCase> cases;
  std::size_t matched = 0;
  for (const auto& variant : kernel_registry<Exec>()) {
    if (!matches(variant.name, config.kernel_patterns)) continue;
    ++matched;
    for (const auto& grid : config.grids)
      for (int radius : config.radii) {
        if (radius < variant.min_radius || radius > variant.max_radius) continue;
        for (int vec : or_default(config.vector_widths, variant.vector_widths.front())) {
          if (std::find(variant.vector_widths.begin(), variant.vector_widths.end(), vec) ==
              variant.vector_widths.end()) {
            std::cerr << "note: " << variant.name << " has no VEC = " << vec << "; skipped\n";
            continue;
          }
          for (int window : or_default(config.windows, 0))
            for (const auto& tile : or_default(config.tiles, std::array<int, 2>{0, 0}))
              for (int stages : variant.ring ? or_default(config.stages, 0) : std::vector<int>{0})
                for (int nontemporal : config.nontemporal) {
                  LaunchOptions options;
                  options.vector_width = vec;
                  options.window = window;
                  options.tile_x = tile[0];
                  options.tile_y = tile[1];
                  options.stages = stages;
                  options.nontemporal = nontemporal != 0;
                  cases.push_back({&variant, radius, grid, options});
                }
        }
      }
  }
  require(matched > 0, "no kernel variant matches '", config.kernel_patterns.front(), "' (seis-bench --list)");
  require(!cases.empty(), "no case to run: the selected variants support none of the requested radii and VEC");
  // Every refusal before the first allocation.
  std::vector<PlannedCase> feasible;
  std::string first_reason;
  for (const auto& c : cases) {
    const auto layout = make_layout(c.grid[0], c.grid[1], c.grid[2], c.radius);
    try {
      validate(*c.variant, layout, c.radius, c.options);
      feasible.push_back(c);
    } catch (const InvalidArgument& e) {
      if (first_reason.empty()) first_reason = e.what();
      skipped.push_back(skipped_case(c, e.what()));
      continue;
    }
    const double needed = 2.0 * buffer_pairs(layout, config.cache_mb) * layout.size * sizeof(float);
    const double available = static_cast<double>(available_memory_bytes());
    require(needed < 0.9 * available, "grid ", c.grid[0], "x", c.grid[1], "x", c.grid[2], " needs ", needed / 1e9,
            " GB of fields, more than 90% of the ", available / 1e9, " GB available");
  }
  require(!feasible.empty(), first_reason);
  return feasible;
}

struct Buffers {
  std::vector<DeviceField> in, out;
};

Buffers allocate(const FieldLayout& layout, int pairs, std::mt19937& rng, Field<Kokkos::HostSpace>& host_input) {
  Buffers b;
  host_input = Field<Kokkos::HostSpace>("host input", layout);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (std::size_t n = 0; n < layout.size; ++n) host_input.data()[n] = uniform(rng);
  for (int p = 0; p < pairs; ++p) {
    b.in.emplace_back("bench in", layout);
    b.out.emplace_back("bench out", layout);
    deep_copy(b.in.back(), host_input);
    Kokkos::deep_copy(b.out.back().span(), std::nanf(""));
  }
  return b;
}

}  // namespace

std::vector<VariantInfo> list_variants() {
  std::vector<VariantInfo> list;
  for (const auto& v : kernel_registry<Exec>())
    list.push_back({v.name, v.family, to_string(v.op), v.description, v.min_radius, v.max_radius, v.vector_widths});
  return list;
}

RunInfo describe_run() {
  RunInfo info;
  info.device = compat::device_name<Exec>();
  info.backend = Exec::name();
  info.kokkos_version = seis::compat::kokkos_version();
  std::ostringstream configuration;
  Kokkos::print_configuration(configuration, false);
  info.kokkos_configuration = configuration.str();
  info.compiler = build_info::compiler;
  info.commit = build_info::git_commit;
  info.dirty = build_info::git_dirty;
  info.thread_placement = compat::thread_placement<Exec>();
  const std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  info.date = date;
  return info;
}

Report run_benchmark(const Config& config,
                     const std::function<void(int done, int total, const std::string&)>& progress) {
  require(config.samples >= 1 && config.batch >= 1 && config.warmup >= 0,
          "samples and batch must be >= 1 and warmup >= 0");
  Report report;
  report.info = describe_run();
  report.config = config;
  report.tuning_cache = config.tuning_cache.empty() ? io::default_tuning_cache_path() : config.tuning_cache;
  const auto cases = plan(config, report.skipped);
  std::mt19937 rng(12345);
  const Exec exec;
  Field<Kokkos::HostSpace> host_input;
  Buffers buffers;
  FieldLayout buffers_layout;

  for (std::size_t n = 0; n < cases.size(); ++n) {
    const auto& c = cases[n];
    const auto& variant = *c.variant;
    const auto layout = make_layout(c.grid[0], c.grid[1], c.grid[2], c.radius);
    const int pairs = buffer_pairs(layout, config.cache_mb);
    std::ostringstream label;
    label << variant.name << " R=" << c.radius << " " << c.grid[0] << "x" << c.grid[1] << "x" << c.grid[2];
    if (progress) progress(static_cast<int>(n), static_cast<int>(cases.size()), label.str());

    // Cases on the same layout share fields: allocating and filling 512^3 fields costs seconds per case.
    if (!(buffers_layout == layout) || static_cast<int>(buffers.in.size()) != pairs) {
      buffers = Buffers{};
      buffers = allocate(layout, pairs, rng, host_input);
      buffers_layout = layout;
    }
    const double interior = static_cast<double>(layout.interior_points());

    // The yardstick, once per grid size: the same fields copied by the tuned vector copy and by deep_copy.
    auto copy = std::find_if(report.copies.begin(), report.copies.end(), [&](const CopyResult& r) {
      return r.nx == c.grid[0] && r.ny == c.grid[1] && r.nz == c.grid[2];
    });
    if (copy == report.copies.end()) {
      CopyResult r{c.grid[0], c.grid[1], c.grid[2], 2.0 * layout.size * sizeof(float), {}, {}, 0, 0};
      r.vector_copy =
          time_launches(config, [&](int k) { vector_copy(exec, buffers.in[k % pairs], buffers.out[k % pairs]); });
      r.deep_copy = time_launches(
          config, [&](int k) { Kokkos::deep_copy(exec, buffers.out[k % pairs].span(), buffers.in[k % pairs].span()); });
      r.vector_copy_gbs = r.bytes / r.vector_copy.median_s / 1e9;
      r.deep_copy_gbs = r.bytes / r.deep_copy.median_s / 1e9;
      report.copies.push_back(r);
      copy = report.copies.end() - 1;
    }

    const auto coefficients = make_coefficients(c.radius);
    // Launch k of a timed loop with `options`. Validated before (plan(), apply() or the tuner's measure): the timed
    // loop only launches, without re-running the limit checks (a CUDA occupancy query each) per launch.
    const auto launches = [&](const LaunchOptions& options) {
      return [&, options](int k) {
        variant.launch(exec, buffers.in[k % pairs], buffers.out[k % pairs], coefficients, options);
      };
    };
    // Verifies (small grids) and times the variant with `options`.
    const auto run_case = [&](const LaunchOptions& options, const std::string& tuning) {
      CaseResult result;
      result.kernel = variant.name;
      result.family = variant.family;
      result.op = to_string(variant.op);
      result.radius = c.radius;
      result.nx = c.grid[0];
      result.ny = c.grid[1];
      result.nz = c.grid[2];
      result.vector_width = options.vector_width;
      result.window = options.window;
      result.tile_x = options.tile_x;
      result.tile_y = options.tile_y;
      result.stages = options.stages;
      result.nontemporal = options.nontemporal;
      result.tuning = tuning;
      result.buffers = pairs;

      const bool verify =
          config.verify == Verify::always || (config.verify == Verify::automatic && interior <= 256.0 * 256.0 * 256.0);
      if (verify) {
        Kokkos::deep_copy(buffers.out[0].span(), std::nanf(""));
        apply(variant, exec, buffers.in[0], buffers.out[0], coefficients, options);
        Kokkos::fence();
        const auto out = to_host(buffers.out[0]);
        const auto summary =
            compare_with_reference(out, reference_star_stencil(host_input, coefficients, variant.op), c.radius);
        result.max_error_ratio = summary.ratio;
        std::ostringstream where;
        where << "(" << summary.i << ", " << summary.j << ", " << summary.k << "): " << summary.got << " vs reference "
              << summary.expected << "; " << summary.failures << " points out of tolerance";
        result.worst_point = where.str();
        result.verified = summary.failures == 0 ? "pass" : "FAIL";
      } else {
        result.verified = "skipped";
      }

      result.time = time_launches(config, launches(options));
      compat::check_last_launch(variant.name.c_str());
      result.bytes = 2.0 * interior * sizeof(float);
      result.flops = flops_per_point(variant.op, c.radius) * interior;
      result.effective_gbs = result.bytes / result.time.median_s / 1e9;
      result.gpts = interior / result.time.median_s / 1e9;
      result.gflops = result.flops / result.time.median_s / 1e9;
      result.copy_gbs = copy->vector_copy_gbs;
      result.percent_of_copy = 100.0 * result.effective_gbs / result.copy_gbs;
      return result;
    };

    // Only cases left to the variant's defaults are tuned or take a cached winner.
    const bool tunable =
        config.vector_widths.empty() && config.windows.empty() && config.tiles.empty() && config.stages.empty();
    const io::TuningKey key{report.info.device, report.info.backend,
                            variant.name,       build_info::kernel_code_version,
                            c.radius,           tuning::grid_class(layout.interior_points())};
    if (config.tune && tunable) {
      Config quick = config;  // candidates are ranked on fewer samples; the pair below is timed in full
      quick.samples = std::min(config.samples, 5);
      quick.warmup = std::min(config.warmup, 1);
      const auto measure = [&](const LaunchOptions& options) {
        validate(variant, layout, c.radius, options);
        return time_launches(quick, launches(options)).median_s;
      };
      const auto space = tuning::default_space(variant.vector_widths, is_gpu_space<Exec>(), variant.ring, c.radius);
      const auto found = tuning::search(space, c.options, measure);
      const CaseResult baseline = run_case(found.start, "default");
      const CaseResult tuned = run_case(found.best, "tuned");
      report.cases.push_back(baseline);
      report.cases.push_back(tuned);
      io::store_tuned(report.tuning_cache, key,
                      {found.best, tuned.time.median_s, baseline.time.median_s, report.info.date});
      TuningRun run{variant.name,
                    key.text(),
                    c.radius,
                    c.grid[0],
                    c.grid[1],
                    c.grid[2],
                    tuning::describe(found.start),
                    tuning::describe(found.best),
                    baseline.time.median_s,
                    tuned.time.median_s,
                    {}};
      for (const auto& t : found.trials) run.candidates.push_back({tuning::describe(t.options), t.seconds, t.refused});
      report.tuning.push_back(run);
      continue;
    }
    LaunchOptions options = c.options;
    std::string tuning_state;
    if (config.use_tuned && tunable)
      if (const auto entry = io::find_tuned(report.tuning_cache, key)) {
        options = entry->options;
        options.nontemporal = c.options.nontemporal;
        validate(variant, layout, c.radius, options);
        tuning_state = "cached";
      }
    const CaseResult result = run_case(options, tuning_state);
    report.cases.push_back(result);
  }
  if (progress) progress(static_cast<int>(cases.size()), static_cast<int>(cases.size()), "done");
  return report;
}

}  // namespace seis::bench

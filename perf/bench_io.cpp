#include "bench_io.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

namespace seis::bench {
namespace {

// A case whose 10th and 90th percentile samples lie further apart than this, relative to the median, is warned of.
constexpr double spread_warning = 0.2;

std::array<int, 3> parse_grid(const std::string& text) {
  static const std::regex cube("([0-9]+)");
  static const std::regex box("([0-9]+)x([0-9]+)x([0-9]+)");
  std::smatch m;
  if (std::regex_match(text, m, cube)) {
    const int n = std::stoi(m[1]);
    return {n, n, n};
  }
  if (std::regex_match(text, m, box)) return {std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3])};
  throw CLI::ValidationError("--grid", "'" + text + "' is not N or NXxNYxNZ");
}

std::array<int, 2> parse_tile(const std::string& text) {
  static const std::regex tile("([0-9]+)x([0-9]+)");
  std::smatch m;
  if (std::regex_match(text, m, tile)) return {std::stoi(m[1]), std::stoi(m[2])};
  throw CLI::ValidationError("--tile", "'" + text + "' is not TXxTY");
}

std::string vec_list(const std::vector<int>& values) {
  std::string text;
  for (int v : values) text += (text.empty() ? "" : ",") + std::to_string(v);
  return text;
}

// The lab notes' comparison: one fused pass against the sum of the best directional kernels (three passes) and
// against xy_fused + the best z kernel (two passes), per radius, grid and store kind. Times add; the bandwidth
// is the Laplacian's compulsory bytes over the summed time. (A real multi-pass Laplacian also re-reads and
// re-writes its accumulator, so the sums are lower bounds on its time.)
struct Comparison {
  int radius, nx, ny, nz;
  bool nontemporal;
  std::string fused_kernel, x_kernel, y_kernel, z_kernel;
  double fused_s, three_pass_s, xy_z_s, bytes;
};

std::vector<Comparison> comparisons(const Report& report) {
  std::vector<Comparison> result;
  const auto best = [&](const CaseResult& like, std::initializer_list<const char*> names, std::string& which) {
    double seconds = 0;
    for (const auto& c : report.cases)
      if (c.radius == like.radius && c.nx == like.nx && c.ny == like.ny && c.nz == like.nz &&
          c.nontemporal == like.nontemporal)
        for (const char* name : names)
          if (c.kernel == name && (seconds == 0 || c.time.median_s < seconds)) {
            seconds = c.time.median_s;
            which = name;
          }
    return seconds;
  };
  for (const auto& c : report.cases) {
    if (c.kernel != "xyz_fused") continue;
    Comparison k{c.radius, c.nx, c.ny, c.nz, c.nontemporal, "", "", "", "", 0, 0, 0, c.bytes};
    std::string xy;
    k.fused_s = best(c, {"xyz_fused", "xyz_fused_cached"}, k.fused_kernel);
    const double x = best(c, {"x", "x_vec"}, k.x_kernel);
    const double y = best(c, {"y", "y_vec", "y_scratch"}, k.y_kernel);
    const double z = best(c, {"z", "z_window", "z_window_vec"}, k.z_kernel);
    const double xy_time = best(c, {"xy_fused"}, xy);
    if (x > 0 && y > 0 && z > 0) k.three_pass_s = x + y + z;
    if (xy_time > 0 && z > 0) k.xy_z_s = xy_time + z;
    const bool seen = std::any_of(result.begin(), result.end(), [&](const Comparison& o) {
      return o.radius == k.radius && o.nx == k.nx && o.ny == k.ny && o.nz == k.nz && o.nontemporal == k.nontemporal;
    });
    if (!seen && (k.three_pass_s > 0 || k.xy_z_s > 0)) result.push_back(k);
  }
  return result;
}

}  // namespace

std::optional<int> parse_command_line(int argc, char** argv, Config& config, const std::string& version) {
  CLI::App app{
      "seis-bench: times seistencil's kernel variants against the same run's copy bandwidth.\n"
      "Effective bandwidth counts one read and one write of the interior (8 bytes per point) per application."};
  std::vector<std::string> grids{"128"}, tiles;
  std::string nontemporal = "off", verify = "auto";
  app.add_option("-k,--kernels", config.kernel_patterns, "variant names or globs (default: all)")->delimiter(',');
  app.add_option("-r,--radius", config.radii, "stencil radius R, 1..8 (default 4)")
      ->delimiter(',')
      ->check(CLI::Range(1, 8));
  app.add_option("-g,--grid", grids, "grid sizes: N (cube) or NXxNYxNZ (default 128)")->delimiter(',');
  app.add_option("--vec", config.vector_widths, "vector widths VEC (1, 2, 4; default: the variant's)")
      ->delimiter(',')
      ->check(CLI::IsMember({1, 2, 4}));
  app.add_option("--nw", config.windows, "z planes per thread for sliding-window kernels (default: the variant's)")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  app.add_option("--tile", tiles, "team tile TXxTY (default: the variant's)")->delimiter(',');
  app.add_option("--stages", config.stages,
                 "planes in the scratch ring of ring kernels (xyz_fused_async; default R + 2, the fewest)")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  app.add_option("--nontemporal", nontemporal, "streaming stores for the output: off, on, both")
      ->check(CLI::IsMember({"off", "on", "both"}));
  app.add_option("--samples", config.samples, "timed samples per case")->check(CLI::PositiveNumber);
  app.add_option("--batch", config.batch, "launches per timed sample")->check(CLI::PositiveNumber);
  app.add_option("--warmup", config.warmup, "untimed launches before timing")->check(CLI::NonNegativeNumber);
  app.add_option("--verify", verify, "compare with the double reference first: auto (grids up to 256^3), on, off")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  app.add_option("--cache-mb", config.cache_mb,
                 "last-level cache size to defeat by rotating buffers (MB; default the larger of 64 and the host's)")
      ->check(CLI::PositiveNumber);
  app.add_option("--json", config.json_path, "write the full report as JSON");
  app.add_option("--csv", config.csv_path, "write one CSV row per case");
  // A single-valued option given twice takes the last value, so wrappers can set defaults that users override.
  for (const char* name :
       {"--nontemporal", "--samples", "--batch", "--warmup", "--verify", "--cache-mb", "--json", "--csv"})
    app.get_option(name)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_flag(
      "--tune", config.tune,
      "search VEC, tile, nw and ring stages of each case left to its defaults; report default against tuned and "
      "cache the winner");
  app.add_flag("!--no-tuned", config.use_tuned, "run default cases at the variant's defaults, not the cached winner");
  app.add_option("--tuning-cache", config.tuning_cache,
                 "the tuners' JSON cache (default $SEIS_TUNING_CACHE, else ~/.cache/seistencil/tuning.json)");
  app.add_flag("--list", config.list, "list every kernel variant and exit");
  app.add_flag("-q,--quiet", config.quiet, "no progress line");
  if (!version.empty()) app.set_version_flag("--version", version);
  try {
    app.parse(argc, argv);
    config.grids.clear();
    for (const auto& g : grids) config.grids.push_back(parse_grid(g));
    for (const auto& t : tiles) config.tiles.push_back(parse_tile(t));
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  config.nontemporal = nontemporal == "off"  ? std::vector<int>{0}
                       : nontemporal == "on" ? std::vector<int>{1}
                                             : std::vector<int>{0, 1};
  config.verify = verify == "auto" ? Verify::automatic : verify == "on" ? Verify::always : Verify::never;
  return std::nullopt;
}

void print_variants(std::ostream& out, const std::vector<VariantInfo>& variants) {
  for (const auto& v : variants)
    out << std::left << std::setw(24) << v.name << " " << std::setw(10) << v.op << " R " << v.min_radius << ".."
        << v.max_radius << "  VEC " << std::setw(6) << vec_list(v.vector_widths) << " " << v.description << "\n";
}

void print_report(std::ostream& out, const Report& report) {
  const auto& info = report.info;
  out << "seis-bench on " << info.device << " (" << info.backend << ", Kokkos " << info.kokkos_version << ", "
      << info.compiler << "), commit " << info.commit << (info.dirty ? " (dirty)" : "") << ", " << info.date << "\n";
  if (!info.thread_placement.empty()) out << "threads placed by " << info.thread_placement << "\n";
  for (const auto& c : report.copies)
    out << "copy bandwidth " << c.nx << "x" << c.ny << "x" << c.nz << ": vector copy " << std::fixed
        << std::setprecision(1) << c.vector_copy_gbs << " GB/s, Kokkos::deep_copy " << c.deep_copy_gbs
        << " GB/s (= 100% below: the vector copy)\n";
  out << std::left << std::setw(24) << "kernel" << std::right << std::setw(3) << "R" << std::setw(16) << "grid"
      << std::setw(4) << "VEC" << std::setw(4) << "nw" << std::setw(7) << "tile" << std::setw(3) << "st" << std::setw(4)
      << "NT" << std::setw(11) << "time[ms]" << std::setw(8) << "p10-90%" << std::setw(9) << "GB/s" << std::setw(8)
      << "%copy" << std::setw(8) << "GPt/s" << std::setw(9) << "GFLOP/s" << std::setw(9) << "verify"
      << "\n";
  for (const auto& c : report.cases) {
    std::ostringstream grid;
    grid << c.nx << "x" << c.ny << "x" << c.nz;
    const std::string name = c.tuning.empty() ? c.kernel : c.kernel + " (" + c.tuning + ")";
    out << std::left << std::setw(24) << name << std::right << std::setw(3) << c.radius << std::setw(16) << grid.str()
        << std::setw(4) << c.vector_width << std::setw(4) << c.window << std::setw(7)
        << (c.tile_x ? std::to_string(c.tile_x) + "x" + std::to_string(c.tile_y) : "-") << std::setw(3)
        << (c.stages ? std::to_string(c.stages) : "-") << std::setw(4) << (c.nontemporal ? "on" : "off") << std::fixed
        << std::setprecision(4) << std::setw(11) << c.time.median_s * 1e3 << std::setprecision(1) << std::setw(8)
        << 100.0 * (c.time.p90_s - c.time.p10_s) / c.time.median_s << std::setw(9) << c.effective_gbs << std::setw(7)
        << c.percent_of_copy << (c.percent_of_copy > 100 ? "*" : " ") << std::setprecision(2) << std::setw(8) << c.gpts
        << std::setprecision(1) << std::setw(9) << c.gflops << std::setw(9) << c.verified << "\n";
  }
  // Numbers that cannot be taken as they stand: marked and said, never printed as fact.
  std::size_t above = 0, spread = 0;
  for (const auto& c : report.cases) {
    above += c.percent_of_copy > 100;
    spread += c.time.median_s > 0 && (c.time.p90_s - c.time.p10_s) / c.time.median_s > spread_warning;
  }
  if (above > 0)
    out << "* not meaningful: above 100% of the copy (the kernel's data stayed in cache where the copy's did not, or "
           "the copy ran while the machine was loaded)\n";
  if (spread > 0)
    out << "warning: " << spread << " case(s) spread by more than " << 100 * spread_warning
        << "% between their 10th and 90th percentile samples (a busy machine?): their times are uncertain; rerun "
           "them on a quiet machine or with more --samples\n";
  for (const auto& t : report.tuning) {
    std::size_t refused = 0;
    for (const auto& candidate : t.candidates) refused += !candidate.refused.empty();
    out << "tuned " << t.kernel << " R=" << t.radius << " " << t.nx << "x" << t.ny << "x" << t.nz << ": "
        << std::setprecision(4) << t.start_s * 1e3 << " ms at " << t.start << " -> " << t.best_s * 1e3 << " ms at "
        << t.best << " (" << t.candidates.size() << " candidates, " << refused << " refused; cached in "
        << report.tuning_cache << ")\n";
  }
  if (!report.skipped.empty()) out << report.skipped.size() << " case(s) of the sweep skipped:\n";
  for (const auto& k : report.skipped)
    out << "  " << k.kernel << " R=" << k.radius << " " << k.nx << "x" << k.ny << "x" << k.nz << ": " << k.reason
        << "\n";
  for (const auto& k : comparisons(report)) {
    const auto line = [&](const std::string& what, double seconds) {
      if (seconds > 0)
        out << "  " << std::left << std::setw(44) << what << std::right << std::fixed << std::setprecision(4)
            << std::setw(9) << seconds * 1e3 << " ms " << std::setprecision(1) << std::setw(8)
            << k.bytes / seconds / 1e9 << " GB/s\n";
    };
    out << "one pass vs several, R=" << k.radius << " " << k.nx << "x" << k.ny << "x" << k.nz
        << " NT=" << (k.nontemporal ? "on" : "off") << " (Laplacian bytes over summed times):\n";
    line("fused: " + k.fused_kernel, k.fused_s);
    line("three passes: " + k.x_kernel + " + " + k.y_kernel + " + " + k.z_kernel, k.three_pass_s);
    line("two passes: xy_fused + " + k.z_kernel, k.xy_z_s);
  }
}

namespace {
nlohmann::json timing_json(const Timing& t) {
  return {{"median_s", t.median_s}, {"min_s", t.min_s}, {"max_s", t.max_s}, {"p10_s", t.p10_s}, {"p90_s", t.p90_s}};
}
}  // namespace

void write_json(const std::string& path, const Report& report) {
  const auto& info = report.info;
  const auto& config = report.config;
  nlohmann::json j;
  j["run"] = {{"device", info.device},
              {"backend", info.backend},
              {"kokkos_version", info.kokkos_version},
              {"compiler", info.compiler},
              {"git_commit", info.commit},
              {"git_dirty", info.dirty},
              {"date", info.date},
              {"command_line", info.command_line},
              {"kokkos_configuration", info.kokkos_configuration},
              {"thread_placement", info.thread_placement}};
  j["config"] = {
      {"samples", config.samples}, {"batch", config.batch}, {"warmup", config.warmup}, {"cache_mb", config.cache_mb}};
  j["formulas"] = {
      {"effective_bandwidth", "2 * nx*ny*nz * 4 bytes (one read and one write of the interior) / median time"},
      {"copy_bandwidth", "2 * padded field bytes (read + write) / median time of the 128-bit vector copy"},
      {"gflops", "(1 + 3 * axes * R) flops per point: a pair add and a multiply-add per offset, one centre multiply"}};
  for (const auto& c : report.copies)
    j["copies"].push_back({{"grid", {c.nx, c.ny, c.nz}},
                           {"bytes", c.bytes},
                           {"vector_copy", timing_json(c.vector_copy)},
                           {"vector_copy_gbs", c.vector_copy_gbs},
                           {"deep_copy", timing_json(c.deep_copy)},
                           {"deep_copy_gbs", c.deep_copy_gbs}});
  for (const auto& c : report.cases)
    j["cases"].push_back({{"kernel", c.kernel},
                          {"family", c.family},
                          {"operator", c.op},
                          {"radius", c.radius},
                          {"grid", {c.nx, c.ny, c.nz}},
                          {"vector_width", c.vector_width},
                          {"window", c.window},
                          {"tile", {c.tile_x, c.tile_y}},
                          {"stages", c.stages},
                          {"nontemporal", c.nontemporal},
                          {"tuning", c.tuning},
                          {"buffers", c.buffers},
                          {"time", timing_json(c.time)},
                          {"bytes", c.bytes},
                          {"flops", c.flops},
                          {"effective_gbs", c.effective_gbs},
                          {"gpts", c.gpts},
                          {"gflops", c.gflops},
                          {"copy_gbs", c.copy_gbs},
                          {"percent_of_copy", c.percent_of_copy},
                          {"verified", c.verified},
                          {"max_error_ratio", c.max_error_ratio},
                          {"worst_point", c.worst_point}});
  j["tuning_cache"] = report.tuning_cache;
  j["tuning"] = nlohmann::json::array();
  for (const auto& t : report.tuning) {
    nlohmann::json candidates = nlohmann::json::array();
    for (const auto& candidate : t.candidates)
      candidates.push_back(
          {{"options", candidate.options}, {"seconds", candidate.seconds}, {"refused", candidate.refused}});
    j["tuning"].push_back({{"kernel", t.kernel},
                           {"key", t.key},
                           {"radius", t.radius},
                           {"grid", {t.nx, t.ny, t.nz}},
                           {"default", {{"options", t.start}, {"seconds", t.start_s}}},
                           {"tuned", {{"options", t.best}, {"seconds", t.best_s}}},
                           {"candidates", candidates}});
  }
  j["skipped"] = nlohmann::json::array();
  for (const auto& k : report.skipped)
    j["skipped"].push_back({{"kernel", k.kernel},
                            {"radius", k.radius},
                            {"grid", {k.nx, k.ny, k.nz}},
                            {"vector_width", k.vector_width},
                            {"window", k.window},
                            {"tile", {k.tile_x, k.tile_y}},
                            {"stages", k.stages},
                            {"reason", k.reason}});
  for (const auto& k : comparisons(report))
    j["comparisons"].push_back(
        {{"radius", k.radius},
         {"grid", {k.nx, k.ny, k.nz}},
         {"nontemporal", k.nontemporal},
         {"fused", {{"kernel", k.fused_kernel}, {"seconds", k.fused_s}}},
         {"three_pass", {{"kernels", {k.x_kernel, k.y_kernel, k.z_kernel}}, {"seconds", k.three_pass_s}}},
         {"xy_plus_z", {{"kernels", {"xy_fused", k.z_kernel}}, {"seconds", k.xy_z_s}}},
         {"bytes", k.bytes}});
  std::ofstream file(path);
  if (!file) throw std::runtime_error("cannot write " + path);
  file << j.dump(2) << "\n";
}

void write_csv(const std::string& path, const Report& report) {
  std::ofstream file(path);
  if (!file) throw std::runtime_error("cannot write " + path);
  file << "device,backend,commit,kernel,family,operator,radius,nx,ny,nz,vec,nw,tile_x,tile_y,stages,nontemporal,"
          "median_s,p10_s,p90_s,effective_gbs,copy_gbs,percent_of_copy,gpts,gflops,verified\n";
  for (const auto& c : report.cases)
    file << '"' << report.info.device << "\"," << report.info.backend << "," << report.info.commit << "," << c.kernel
         << "," << c.family << "," << c.op << "," << c.radius << "," << c.nx << "," << c.ny << "," << c.nz << ","
         << c.vector_width << "," << c.window << "," << c.tile_x << "," << c.tile_y << "," << c.stages << ","
         << c.nontemporal << "," << c.time.median_s << "," << c.time.p10_s << "," << c.time.p90_s << ","
         << c.effective_gbs << "," << c.copy_gbs << "," << c.percent_of_copy << "," << c.gpts << "," << c.gflops << ","
         << c.verified << "\n";
}

}  // namespace seis::bench

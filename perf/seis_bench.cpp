// seis-bench: the project's main job. See --help, and docs/seis-bench.md for the bandwidth formulas.
#include <Kokkos_Core.hpp>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

#include "bench_io.hpp"
#include "bench_runner.hpp"
#include "seis/core/compat.hpp"
#include "seis_build_info.hpp"

int main(int argc, char** argv) {
  seis::bench::Config config;
  const std::string version = seis::build_info::version_line("seis-bench", seis::compat::kokkos_version(),
                                                             Kokkos::DefaultExecutionSpace::name());
  if (const auto exit_code = seis::bench::parse_command_line(argc, argv, config, version)) return *exit_code;
  seis::compat::default_thread_placement();
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    if (config.list) {
      seis::bench::print_variants(std::cout, seis::bench::list_variants());
      return EXIT_SUCCESS;
    }
    const auto progress = [&](int done, int total, const std::string& label) {
      if (!config.quiet) std::cerr << "[" << done << "/" << total << "] " << label << "\n";
    };
    auto report = seis::bench::run_benchmark(config, progress);
    for (int a = 0; a < argc; ++a) report.info.command_line += (a ? " " : "") + std::string(argv[a]);
    seis::bench::print_report(std::cout, report);
    if (!config.json_path.empty()) seis::bench::write_json(config.json_path, report);
    if (!config.csv_path.empty()) seis::bench::write_csv(config.csv_path, report);
    for (const auto& c : report.cases)
      if (c.verified == "FAIL") {
        std::cerr << "error: " << c.kernel << " R=" << c.radius << " failed verification (max error "
                  << c.max_error_ratio << " x tolerance at " << c.worst_point << ")\n";
        return EXIT_FAILURE;
      }
  } catch (const std::exception& e) {
    std::cerr << "seis-bench: " << e.what() << "\n";
    return 2;
  }
  return EXIT_SUCCESS;
}

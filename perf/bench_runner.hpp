#pragma once
// The Kokkos side of seis-bench: cases from the registry, timing, verification.
#include <functional>

#include "bench_types.hpp"

namespace seis::bench {

std::vector<VariantInfo> list_variants();
RunInfo describe_run();

// Expands the config into cases and refuses bad ones (unsupported VEC, scratch beyond the device limit, grids
// larger than memory) before allocating anything. `progress` is called before each case.
Report run_benchmark(const Config& config,
                     const std::function<void(int done, int total, const std::string&)>& progress);

}  // namespace seis::bench

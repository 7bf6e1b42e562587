#include "seis/core/host_parallel.hpp"

#include <sched.h>
#include <sys/mman.h>

#include <cstdint>

namespace seis {

unsigned usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return unsigned(std::max(1, CPU_COUNT(&set)));
  return std::max(1u, std::thread::hardware_concurrency());
}

std::vector<float> host_floats(std::size_t n, float value) {
  std::vector<float> values;
  values.reserve(n);
  // Advice only (a kernel without THP, or with it off, answers an error that changes nothing): the pages are not
  // touched until resize writes the values.
  constexpr std::uintptr_t huge = std::uintptr_t(1) << 21;
  const std::uintptr_t begin = (reinterpret_cast<std::uintptr_t>(values.data()) + huge - 1) & ~(huge - 1),
                       end = reinterpret_cast<std::uintptr_t>(values.data() + n) & ~(huge - 1);
#ifdef MADV_HUGEPAGE
  if (end > begin) (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
  values.resize(n, value);
  return values;
}

}  // namespace seis

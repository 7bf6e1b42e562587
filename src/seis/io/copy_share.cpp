#include "seis/io/copy_share.hpp"

#include <iomanip>
#include <sstream>

namespace seis::io {

CopyShare share_of_copy(double gb_per_s, double copy_gb_per_s, double copy_bytes, double cache_bytes, bool device) {
  CopyShare s;
  if (!(copy_gb_per_s > 0)) return s.caveat = "no copy yardstick was measured", s;
  s.percent = 100.0 * gb_per_s / copy_gb_per_s;
  std::ostringstream why;
  if (device && copy_bytes < 128.0 * 1048576)
    why << "the yardstick's " << copy_bytes / 1048576 << " MiB may sit in the GPU's cache";
  else if (!device && !(cache_bytes > 0))
    why << "this machine reports no cache size, so the yardstick may have run in cache";
  else if (!device && copy_bytes < 2 * cache_bytes)
    why << "the yardstick's " << copy_bytes / 1048576 << " MiB fit in the " << cache_bytes / 1048576
        << " MiB last-level cache";
  else if (s.percent > 100)
    why << "above 100%: the copy ran slower than the kernel beside it (a loaded machine)";
  s.caveat = why.str();
  return s;
}

std::string describe(const CopyShare& share, double copy_gb_per_s) {
  std::ostringstream out;
  out << std::setprecision(4) << share.percent << "% of this run's copy (" << copy_gb_per_s << " GB/s";
  if (!share.caveat.empty()) out << "; not meaningful: " << share.caveat;
  out << ")";
  return out.str();
}

}  // namespace seis::io

#pragma once
// A rate as a share of the same run's copy bandwidth, and whether that share means anything: a copy measured while
// the machine was loaded runs slower than the kernel beside it (above 100%), and a yardstick that fits in the
// last-level cache (or on a machine that reports no cache size, where that cannot be known) measures the cache,
// not memory. Such shares are printed marked, never as fact. Host-only.
#include <string>

namespace seis::io {

struct CopyShare {
  double percent = 0;  // 100 gb_per_s / copy_gb_per_s (0 without a yardstick)
  std::string caveat;  // empty where the share is meaningful; else why not
};

// `copy_bytes` read and written per pass of the yardstick; `cache_bytes` the host's last-level cache (0: unknown);
// `device`: the yardstick ran in GPU memory (whose caches hold at most tens of MB: 128 MiB and more is out of them).
CopyShare share_of_copy(double gb_per_s, double copy_gb_per_s, double copy_bytes, double cache_bytes, bool device);

// "87.3% of this run's copy (3006 GB/s)", or with the caveat "152% of this run's copy (0.12 GB/s; not meaningful:
// ...)".
std::string describe(const CopyShare& share, double copy_gb_per_s);

}  // namespace seis::io

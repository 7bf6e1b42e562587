#pragma once
// The output directory, checked before a run's expensive part: created, writable, holding no earlier run's outputs
// unless asked to replace them, and with room for what the run will write. Host-only.
#include <cstdint>
#include <string>

namespace seis::io {

struct OutputPolicy {
  bool restart = false;      // continue the run whose outputs are there: they stay
  bool overwrite = false;    // replace an earlier run's outputs: they are removed first
  std::uintmax_t bytes = 0;  // what the run will write, as far as it is known beforehand
};

// Refuses, naming the directory and the reason: one that cannot be created or written (tried by writing and
// syncing a file), one holding an earlier run's outputs (seismogram.sgy, run.json, pictures, snapshots,
// checkpoints) without --restart or --overwrite, and one on a file system with less room than `bytes`. With
// overwrite, those outputs (and only those) are removed, so no stale snapshot stays mixed in.
void prepare_output_directory(const std::string& path, const OutputPolicy& policy);

}  // namespace seis::io

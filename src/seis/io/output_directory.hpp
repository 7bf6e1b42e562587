#pragma once
// The output directory, checked before a run's expensive part: created, writable, holding no other kind of run's
// records, no earlier run's outputs unless asked to replace them, and with room for what the run will write.
// Host-only.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace seis::io {

// What writes into a directory, by the records it leaves: a single run (or Born modelling) seismogram.sgy and
// run.json; a modelling survey survey.json and its shots' records; a migration migration.json, stack-*.bin and
// its shots' records; an inversion inversion.json and inversion-state.bin.
enum class RunKind { single, survey, migration, inversion };

struct OutputPolicy {
  bool restart = false;      // continue the run whose outputs are there: they stay
  bool overwrite = false;    // replace an earlier run's outputs: they go once the new run has written its own
  std::uintmax_t bytes = 0;  // what the run will write, as far as it is known beforehand
  RunKind kind = RunKind::single;
};

// An earlier run's outputs that --overwrite replaces: each file's name and inode when the run started.
struct EarlierOutputs {
  std::string directory;
  std::vector<std::pair<std::string, std::uintmax_t>> files;
};

// Refuses, naming the directory and the reason: one that cannot be created or written (tried by writing and
// syncing a file), one holding another kind of run's records, one holding an earlier run's outputs (seismogram.sgy,
// run.json, pictures, snapshots, checkpoints) without --restart or --overwrite, and one on a file system with less
// room than `bytes` (less what this kind of run's outputs there already hold, on a restart, which replaces them).
// Nothing is removed: with overwrite, the earlier outputs are returned for remove_stale_outputs.
EarlierOutputs prepare_output_directory(const std::string& path, const OutputPolicy& policy);

// After the new run has written its outputs (every rank's): removes the earlier ones it did not replace (a file
// still the same inode), so no stale snapshot stays mixed in with the new run's.
void remove_stale_outputs(const EarlierOutputs& earlier);

// Refuses a file system at PATH with less room than `bytes`, naming both ("the run writes about ... MiB").
void require_free_space(const std::string& path, std::uintmax_t bytes, const std::string& what);

// The bytes this kind of run's outputs in PATH hold (what a restart replaces), 0 where there are none.
std::uintmax_t existing_output_bytes(const std::string& path, RunKind kind);

}  // namespace seis::io

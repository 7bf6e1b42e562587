#pragma once
// The tuner's winners, kept as JSON between runs (host-only: nlohmann-json). One entry per device, backend, kernel,
// kernel-code version, radius and grid class; a run uses the entry of its key unless told not to, and a kernel
// change (a new code version) leaves old entries unused.
#include <optional>
#include <string>

#include "seis/kernels/launch_options.hpp"

namespace seis::io {

struct TuningKey {
  std::string device, backend, kernel, code_version;
  int radius = 0;
  std::string grid_class;    // seis::tuning::grid_class
  std::string text() const;  // "device|backend|kernel|code|R4|n512"
};

struct TunedEntry {
  LaunchOptions options;
  double seconds = 0, default_seconds = 0;  // per launch, tuned and at the kernel's defaults
  std::string date;
};

// $SEIS_TUNING_CACHE, else $XDG_CACHE_HOME/seistencil/tuning.json, else ~/.cache/seistencil/tuning.json.
std::string default_tuning_cache_path();

// The entry of `key`, if the file has one. A missing file is an empty cache; an unreadable one is refused with the
// parser's message (so that a corrupt cache is noticed, not silently ignored).
std::optional<TunedEntry> find_tuned(const std::string& path, const TuningKey& key);

// Adds or replaces the entry: written to a temporary file and renamed, so a crash never leaves half a cache.
void store_tuned(const std::string& path, const TuningKey& key, const TunedEntry& entry);

}  // namespace seis::io

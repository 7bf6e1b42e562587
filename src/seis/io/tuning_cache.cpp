#include "seis/io/tuning_cache.hpp"

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "seis/core/error.hpp"
#include "seis/io/input_file.hpp"

namespace seis::io {
namespace {

// The cache, or an empty one where there is none. A cache that cannot be read (not a regular file, not JSON, not an
// object) never fails a run: it is set aside as PATH.damaged-SECONDS with a warning, and rebuilt from nothing.
nlohmann::json read_cache(const std::string& path) {
  std::string damage;
  const std::string kind = file_kind(path);
  if (kind == "nothing") return nlohmann::json::object();
  if (kind != "a regular file") {
    damage = kind;
  } else {
    std::ifstream file(path);
    const nlohmann::json j = nlohmann::json::parse(file, nullptr, false);
    if (j.is_object()) return j;
    damage = j.is_discarded() ? "not JSON" : "not a JSON object";
  }
  const std::string aside = path + ".damaged-" + std::to_string(std::time(nullptr));
  std::error_code error;
  std::filesystem::rename(path, aside, error);
  std::cerr << "seis: warning: tuning cache " << path << " is " << damage << ": "
            << (error ? "left where it is (" + error.message() + ")" : "set aside as " + aside)
            << "; tuning starts afresh\n";
  return nlohmann::json::object();
}

}  // namespace

std::string TuningKey::text() const {
  return device + "|" + backend + "|" + kernel + "|" + code_version + "|R" + std::to_string(radius) + "|" + grid_class;
}

std::string default_tuning_cache_path() {
  if (const char* path = std::getenv("SEIS_TUNING_CACHE")) return path;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME")) return std::string(xdg) + "/seistencil/tuning.json";
  const char* home = std::getenv("HOME");
  return std::string(home ? home : ".") + "/.cache/seistencil/tuning.json";
}

std::optional<TunedEntry> find_tuned(const std::string& path, const TuningKey& key) {
  const auto cache = read_cache(path);
  const auto found = cache.find(key.text());
  if (found == cache.end()) return std::nullopt;
  const auto& j = *found;
  TunedEntry entry;
  entry.options.vector_width = j.value("vector_width", 0);
  entry.options.window = j.value("window", 0);
  entry.options.tile_x = j.value("tile_x", 0);
  entry.options.tile_y = j.value("tile_y", 0);
  entry.options.stages = j.value("stages", 0);
  entry.seconds = j.value("seconds", 0.0);
  entry.default_seconds = j.value("default_seconds", 0.0);
  entry.date = j.value("date", std::string());
  return entry;
}

void store_tuned(const std::string& path, const TuningKey& key, const TunedEntry& entry) {
  auto cache = read_cache(path);
  cache[key.text()] = {{"device", key.device},
                       {"backend", key.backend},
                       {"kernel", key.kernel},
                       {"code_version", key.code_version},
                       {"radius", key.radius},
                       {"grid_class", key.grid_class},
                       {"vector_width", entry.options.vector_width},
                       {"window", entry.options.window},
                       {"tile_x", entry.options.tile_x},
                       {"tile_y", entry.options.tile_y},
                       {"stages", entry.options.stages},
                       {"seconds", entry.seconds},
                       {"default_seconds", entry.default_seconds},
                       {"date", entry.date}};
  const std::filesystem::path target(path);
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path());
  const std::string temporary = path + ".tmp";
  {
    std::ofstream file(temporary);
    require(static_cast<bool>(file), "cannot write the tuning cache ", temporary);
    file << cache.dump(2) << "\n";
    require(static_cast<bool>(file), "cannot write the tuning cache ", temporary);
  }
  std::filesystem::rename(temporary, target);
}

}  // namespace seis::io

#include "seis/io/output_directory.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "seis/core/error.hpp"

namespace seis::io {

namespace {

namespace fs = std::filesystem;

bool starts(const std::string& name, const char* prefix) { return name.rfind(prefix, 0) == 0; }

// seis-wave's own outputs of a single run, by name (rank files included): what an earlier run leaves.
bool run_output(const std::string& name) {
  return name == "seismogram.sgy" || name == "shot-gather.png" || name == "run.json" ||
         starts(name, "wavefield-final") || starts(name, "snapshot-") || starts(name, "checkpoint.");
}

const char* kind_name(RunKind kind) {
  return kind == RunKind::single      ? "single run"
         : kind == RunKind::survey    ? "survey"
         : kind == RunKind::migration ? "migration"
                                      : "inversion";
}

// The kind of run whose record NAME in DIRECTORY is, if it is one.
std::optional<RunKind> record_kind(const fs::path& directory, const std::string& name) {
  if (name == "seismogram.sgy" || name == "run.json") return RunKind::single;
  if (name == "survey.json") return RunKind::survey;
  if (name == "inversion.json" || name == "inversion-state.bin") return RunKind::inversion;
  if (name == "migration.json" || (starts(name, "stack-") && fs::path(name).extension() == ".bin"))
    return RunKind::migration;
  if (starts(name, "shot-") && fs::path(name).extension() == ".json") {
    const std::string path = (directory / name).string();
    std::error_code error;
    if (!fs::is_regular_file(path, error)) return std::nullopt;
    std::ifstream in(path);
    const nlohmann::json record = nlohmann::json::parse(in, nullptr, false);
    // Records of earlier versions hold no kind: those of a modelling survey (a migration's had forward times).
    if (!record.is_object()) return std::nullopt;
    const std::string kind =
        record.value("kind", std::string(record.value("forward_seconds", 0.0) > 0 ? "migration" : "survey"));
    return kind == "migration" ? RunKind::migration : RunKind::survey;
  }
  return std::nullopt;
}

bool own_output(const std::string& name, RunKind kind) {
  switch (kind) {
    case RunKind::single:
      return run_output(name);
    case RunKind::survey:
      return name == "survey.json" || starts(name, "shot-");
    case RunKind::migration:
      return name == "migration.json" || starts(name, "stack-") || starts(name, "shot-") || starts(name, "image") ||
             starts(name, "illumination") || starts(name, "density-image") || starts(name, "migration-");
    case RunKind::inversion:
      return name == "inversion.json" || name == "inversion-state.bin";
  }
  return false;
}

}  // namespace

EarlierOutputs prepare_output_directory(const std::string& path, const OutputPolicy& policy) {
  require(path.find('\0') == std::string::npos && !path.empty(), "--output: an empty path or one with a NUL");
  std::error_code error;
  fs::create_directories(path, error);
  require(!error && fs::is_directory(path), "--output ", path, ": cannot be created as a directory (",
          error ? error.message() : "a file of that name exists", ")");

  const std::string probe = (fs::path(path) / (".seis-wave-write-test." + std::to_string(::getpid()))).string();
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
  require(fd >= 0, "--output ", path, " is not writable: ", std::strerror(errno));
  const bool written = ::write(fd, "x", 1) == 1 && ::fsync(fd) == 0;
  const std::string why = written ? "" : std::strerror(errno);
  ::close(fd);
  ::unlink(probe.c_str());
  require(written, "--output ", path, " is not writable: ", why);

  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(path)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    const auto kind = record_kind(path, name);
    require(!kind || *kind == policy.kind, "--output ", path, " holds a ", kind_name(kind.value_or(policy.kind)),
            "'s records (", name, "): a ", kind_name(policy.kind),
            " never writes among another kind of run's; choose another --output");
  }

  EarlierOutputs earlier{path, {}};
  if (!policy.restart && (policy.kind == RunKind::single || policy.kind == RunKind::inversion)) {
    for (const std::string& name : names)
      if (policy.kind == RunKind::single ? run_output(name) : own_output(name, policy.kind)) {
        struct stat info {};
        if (::lstat((fs::path(path) / name).c_str(), &info) == 0) earlier.files.push_back({name, info.st_ino});
      }
    if (!earlier.files.empty() && !policy.overwrite) {
      std::string list;
      for (std::size_t n = 0; n < std::min<std::size_t>(earlier.files.size(), 3); ++n)
        list += (n ? ", " : "") + earlier.files[n].first;
      fail("--output ", path, " holds an earlier run's outputs (", list, earlier.files.size() > 3 ? ", ..." : "",
           "): --overwrite replaces them, --restart continues that run, or choose another --output");
    }
  }
  const std::uintmax_t there = policy.restart ? existing_output_bytes(path, policy.kind) : 0;
  require_free_space(path, policy.bytes > there ? policy.bytes - there : 0, "the run");
  return earlier;
}

void remove_stale_outputs(const EarlierOutputs& earlier) {
  for (const auto& [name, inode] : earlier.files) {
    const fs::path file = fs::path(earlier.directory) / name;
    struct stat info {};
    if (::lstat(file.c_str(), &info) == 0 && info.st_ino == inode) fs::remove(file);
  }
}

void require_free_space(const std::string& path, std::uintmax_t bytes, const std::string& what) {
  std::error_code error;
  const fs::space_info space = fs::space(path, error);
  require(error || space.available >= bytes, "--output ", path, ": ", what, " writes about ", bytes / 1048576.0,
          " MiB, the file system has ", space.available / 1048576.0, " MiB free");
}

std::uintmax_t existing_output_bytes(const std::string& path, RunKind kind) {
  std::uintmax_t bytes = 0;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(path, error))
    if (entry.is_regular_file(error) && own_output(entry.path().filename().string(), kind))
      bytes += entry.file_size(error);
  return bytes;
}

}  // namespace seis::io

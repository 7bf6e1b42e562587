#include "seis/io/output_directory.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "seis/core/error.hpp"

namespace seis::io {

namespace {

namespace fs = std::filesystem;

// seis-wave's own outputs, by name (rank files included): what an earlier run leaves.
bool run_output(const std::string& name) {
  const auto starts = [&](const char* prefix) { return name.rfind(prefix, 0) == 0; };
  return name == "seismogram.sgy" || name == "shot-gather.png" || name == "run.json" || starts("wavefield-final") ||
         starts("snapshot-") || starts("checkpoint.");
}

}  // namespace

void prepare_output_directory(const std::string& path, const OutputPolicy& policy) {
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

  if (!policy.restart) {
    std::vector<std::string> earlier;
    for (const auto& entry : fs::directory_iterator(path))
      if (run_output(entry.path().filename().string())) earlier.push_back(entry.path().filename().string());
    std::sort(earlier.begin(), earlier.end());
    if (!earlier.empty() && !policy.overwrite) {
      std::string names;
      for (std::size_t n = 0; n < std::min<std::size_t>(earlier.size(), 3); ++n) names += (n ? ", " : "") + earlier[n];
      fail("--output ", path, " holds an earlier run's outputs (", names, earlier.size() > 3 ? ", ..." : "",
           "): --overwrite replaces them, --restart continues that run, or choose another --output");
    }
    for (const auto& name : earlier) fs::remove(fs::path(path) / name);
  }

  const fs::space_info space = fs::space(path, error);
  require(error || space.available >= policy.bytes, "--output ", path, ": the run writes about ",
          policy.bytes / 1048576.0, " MiB, the file system has ", space.available / 1048576.0, " MiB free");
}

}  // namespace seis::io

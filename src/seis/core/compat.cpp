#include "seis/core/compat.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

namespace seis::compat {

std::string host_processor_name() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "host";
}

void default_thread_placement() {
  setenv("OMP_PROC_BIND", "spread", 0);
  setenv("OMP_PLACES", "threads", 0);
}

std::string thread_placement() {
  std::string text;
  for (const char* name : {"OMP_PROC_BIND", "OMP_PLACES"}) {
    const char* value = std::getenv(name);
    text += std::string(text.empty() ? "" : " ") + name + "=" + (value ? value : "(unset)");
  }
  return text;
}

int device_count() {
  int count = 1;
#if defined(KOKKOS_ENABLE_CUDA)
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 1;
#elif defined(KOKKOS_ENABLE_HIP)
  if (hipGetDeviceCount(&count) != hipSuccess) count = 1;
#endif
  return count > 0 ? count : 1;
}

int launcher_local_rank(int argc, char** argv) {
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg.rfind("--kokkos-device-id", 0) == 0 || arg.rfind("--kokkos-num-devices", 0) == 0) return -1;
  }
  if (std::getenv("KOKKOS_DEVICE_ID") != nullptr || std::getenv("KOKKOS_NUM_DEVICES") != nullptr) return -1;
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"})
    if (const char* rank = std::getenv(name)) return std::max(0, std::atoi(rank));
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "SLURM_PROCID"})
    if (std::getenv(name) != nullptr) return -1;
  return 0;
}

DeviceStart::DeviceStart(int local_rank) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  if (local_rank < 0) return;
  thread_ = std::thread([local_rank] {
#if defined(KOKKOS_ENABLE_CUDA)
    if (cudaSetDevice(local_rank % device_count()) == cudaSuccess) (void)cudaFree(nullptr);
#elif defined(KOKKOS_ENABLE_HIP)
    if (hipSetDevice(local_rank % device_count()) == hipSuccess) (void)hipFree(nullptr);
#endif
  });
#else
  (void)local_rank;
#endif
}

DeviceStart::~DeviceStart() {
  if (thread_.joinable()) thread_.join();
}

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A cgroup file's number; none where it is absent or "max" (no limit).
std::optional<std::size_t> cgroup_value(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return std::nullopt;
  try {
    return static_cast<std::size_t>(std::stoull(word));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::size_t host_available_bytes(const std::string& meminfo, const std::string& self_cgroup,
                                 const std::string& cgroup_root) {
  std::size_t available = static_cast<std::size_t>(-1);
  std::istringstream lines(meminfo);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string key;
    std::size_t kib = 0;
    if (fields >> key >> kib && key == "MemAvailable:") available = kib * 1024;
  }
  // "0::/a/b" (v2) or "N:memory:/a/b" (v1, possibly among other controllers): the limit that binds is the
  // smallest room left on the group or any ancestor.
  std::istringstream groups(self_cgroup);
  for (std::string line; std::getline(groups, line);) {
    const auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    std::string path = line.substr(second + 1);
    const bool v2 = line.compare(0, first, "0") == 0 && controllers.empty();
    const bool v1 = ("," + controllers + ",").find(",memory,") != std::string::npos;
    if (!v2 && !v1) continue;
    const std::string base = cgroup_root + (v1 ? "/memory" : "");
    const char* limit_file = v2 ? "/memory.max" : "/memory.limit_in_bytes";
    const char* usage_file = v2 ? "/memory.current" : "/memory.usage_in_bytes";
    while (true) {
      const auto limit = cgroup_value(base + path + limit_file), usage = cgroup_value(base + path + usage_file);
      if (limit) available = std::min(available, *limit > usage.value_or(0) ? *limit - usage.value_or(0) : 0);
      if (path.empty() || path == "/") break;
      path = path.substr(0, path.find_last_of('/'));
    }
  }
  return available;
}

std::size_t host_available_bytes() {
  return host_available_bytes(read_text("/proc/meminfo"), read_text("/proc/self/cgroup"), "/sys/fs/cgroup");
}

std::size_t last_level_cache_bytes(const std::string& cpu_root) {
  namespace fs = std::filesystem;
  std::error_code error;
  int highest = 0;
  std::map<std::string, std::size_t> caches;  // by the CPUs sharing each cache of the highest level
  for (const auto& cpu : fs::directory_iterator(cpu_root, error)) {
    const std::string name = cpu.path().filename().string();
    if (name.size() < 4 || name.compare(0, 3, "cpu") != 0 || !std::isdigit(static_cast<unsigned char>(name[3])))
      continue;
    for (const auto& index : fs::directory_iterator(cpu.path() / "cache", error)) {
      std::istringstream level_text(read_text((index.path() / "level").string()));
      std::istringstream size_text(read_text((index.path() / "size").string()));
      std::istringstream shared_text(read_text((index.path() / "shared_cpu_list").string()));
      int level = 0;
      std::size_t size = 0;
      std::string unit, shared;
      if (!(level_text >> level) || !(size_text >> size) || !(shared_text >> shared)) continue;
      size_text >> unit;
      if (!unit.empty() && (unit[0] == 'K' || unit[0] == 'k')) size <<= 10;
      if (!unit.empty() && unit[0] == 'M') size <<= 20;
      if (level > highest) highest = level, caches.clear();
      if (level == highest) caches[shared] = size;
    }
  }
  std::size_t total = 0;
  for (const auto& cache : caches) total += cache.second;
  return total;
}

std::size_t host_copy_bytes(std::size_t field_bytes, std::size_t working_bytes, std::size_t cache_bytes) {
  const std::size_t field_copy = 2 * field_bytes;
  if (cache_bytes == 0 || working_bytes <= cache_bytes / 2) return field_copy;
  return std::max(field_copy, 2 * cache_bytes);
}

std::size_t available_memory_bytes() {
#if defined(KOKKOS_ENABLE_CUDA)
  std::size_t free_bytes = 0, total = 0;
  if (cudaMemGetInfo(&free_bytes, &total) == cudaSuccess) return free_bytes;
#elif defined(KOKKOS_ENABLE_HIP)
  std::size_t free_bytes = 0, total = 0;
  if (hipMemGetInfo(&free_bytes, &total) == hipSuccess) return free_bytes;
#endif
  return host_available_bytes();
}

}  // namespace seis::compat

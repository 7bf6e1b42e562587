// Host facts that the reports record: thread placement defaults and their text.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "seis/core/compat.hpp"
#include "seis/core/host_parallel.hpp"

namespace {

// Restores an environment variable on scope exit, so that the test leaves the process as it found it.
class SavedVariable {
 public:
  explicit SavedVariable(const char* name) : name_(name) {
    if (const char* value = std::getenv(name)) saved_ = value, had_ = true;
  }
  ~SavedVariable() {
    if (had_)
      setenv(name_, saved_.c_str(), 1);
    else
      unsetenv(name_);
  }

 private:
  const char* name_;
  std::string saved_;
  bool had_ = false;
};

TEST(ThreadPlacement, DefaultsFillOnlyWhatTheUserLeftUnset) {
  const SavedVariable bind("OMP_PROC_BIND"), places("OMP_PLACES");
  unsetenv("OMP_PROC_BIND");
  setenv("OMP_PLACES", "cores", 1);
  seis::compat::default_thread_placement();
  EXPECT_EQ(seis::compat::thread_placement(), "OMP_PROC_BIND=spread OMP_PLACES=cores");
  unsetenv("OMP_PLACES");
  EXPECT_EQ(seis::compat::thread_placement(), "OMP_PROC_BIND=spread OMP_PLACES=(unset)");
}

}  // namespace

// Host memory left: MemAvailable, or less where the process's control group (or an ancestor) leaves less, for
// cgroup v2 and v1; "max" is no limit.
TEST(HostMemory, ControlGroupLimitsBind) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("seis-cgroup-" + std::to_string(::getpid()));
  fs::remove_all(root);
  const auto put = [&](const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text << "\n";
  };
  const std::string meminfo = "MemTotal: 100000000 kB\nMemAvailable:   8000000 kB\n";  // 8 GB
  EXPECT_EQ(seis::compat::host_available_bytes(meminfo, "", root.string()), std::size_t(8000000) * 1024);
  // v2: a 1 GiB job with 300 MiB used, inside a group without a limit.
  put(root / "slurm/job7/memory.max", "1073741824");
  put(root / "slurm/job7/memory.current", "314572800");
  put(root / "slurm/memory.max", "max");
  EXPECT_EQ(seis::compat::host_available_bytes(meminfo, "0::/slurm/job7\n", root.string()),
            std::size_t(1073741824 - 314572800));
  // The ancestor binds when it leaves less.
  put(root / "slurm/memory.max", "500000000");
  put(root / "slurm/memory.current", "400000000");
  EXPECT_EQ(seis::compat::host_available_bytes(meminfo, "0::/slurm/job7\n", root.string()), std::size_t(100000000));
  // v1: the memory controller's own hierarchy.
  put(root / "memory/docker/abc/memory.limit_in_bytes", "2147483648");
  put(root / "memory/docker/abc/memory.usage_in_bytes", "147483648");
  EXPECT_EQ(
      seis::compat::host_available_bytes(meminfo, "12:cpu,cpuacct:/docker/abc\n9:memory:/docker/abc\n", root.string()),
      std::size_t(2000000000));
  fs::remove_all(root);
}

// Two sockets' L3s (each shared by two CPUs, listed under both) and their L2s: the two L3s, each once.
TEST(HostCache, LastLevelCountsEachSharedCacheOnce) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("seis-cpu-" + std::to_string(::getpid()));
  const auto cache = [&](int cpu, int index, int level, const std::string& size, const std::string& shared) {
    const fs::path dir = root / ("cpu" + std::to_string(cpu)) / "cache" / ("index" + std::to_string(index));
    fs::create_directories(dir);
    std::ofstream(dir / "level") << level << "\n";
    std::ofstream(dir / "size") << size << "\n";
    std::ofstream(dir / "shared_cpu_list") << shared << "\n";
  };
  for (int cpu = 0; cpu < 4; ++cpu) {
    cache(cpu, 2, 2, "2048K", std::to_string(cpu));
    cache(cpu, 3, 3, "32M", cpu < 2 ? "0-1" : "2-3");
  }
  fs::create_directories(root / "cpufreq" / "cache" / "index3");  // not a CPU: skipped
  EXPECT_EQ(seis::compat::last_level_cache_bytes(root.string()), std::size_t(64) << 20);
  EXPECT_EQ(seis::compat::last_level_cache_bytes((root / "missing").string()), 0u);
  fs::remove_all(root);
}

// The yardstick streams beyond the cache only where the step's arrays do.
TEST(HostCache, CopyYardstickOutgrowsTheCacheWhereTheStepDoes) {
  const std::size_t mib = std::size_t(1) << 20;
  EXPECT_EQ(seis::compat::host_copy_bytes(64 * mib, 150 * mib, 300 * mib), 128 * mib);  // the step runs in cache
  EXPECT_EQ(seis::compat::host_copy_bytes(64 * mib, 151 * mib, 300 * mib), 600 * mib);  // from memory: so the copy
  EXPECT_EQ(seis::compat::host_copy_bytes(512 * mib, 4096 * mib, 300 * mib), 1024 * mib);
  EXPECT_EQ(seis::compat::host_copy_bytes(64 * mib, 400 * mib, 0), 128 * mib);  // cache unknown
}

// The set-up's host passes: pieces contiguous, in order, covering every index once, the earliest piece's error
// rethrown, whatever the CPU count (this machine's two or a device machine's 64).
TEST(HostParallel, FoldsPiecesInOrderAndRethrowsTheEarliestError) {
  const std::size_t n = std::size_t(9) << 20;
  using Pieces = std::vector<std::pair<std::size_t, std::size_t>>;
  const Pieces pieces = seis::host_parallel_reduce(
      n, Pieces{},
      [](std::size_t begin, std::size_t end) {
        return Pieces{{begin, end}};
      },
      [](Pieces a, const Pieces& b) {
        a.insert(a.end(), b.begin(), b.end());
        return a;
      });
  ASSERT_FALSE(pieces.empty());
  EXPECT_EQ(pieces.size(), std::min<std::size_t>(seis::usable_cpus(), 9));
  EXPECT_EQ(pieces.front().first, 0u);
  EXPECT_EQ(pieces.back().second, n);
  for (std::size_t p = 1; p < pieces.size(); ++p) EXPECT_EQ(pieces[p].first, pieces[p - 1].second);
  try {
    seis::host_parallel_for(n, [&](std::size_t begin, std::size_t end) {
      for (std::size_t bad : {std::size_t(3) << 20, n / 2, n - 1})
        if (bad >= begin && bad < end) throw std::runtime_error(std::to_string(bad));
    });
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(e.what(), std::to_string(std::size_t(3) << 20));
  }
}

// A model's buffer: every value written, huge pages granted or not (4 MiB and a float: part of a huge page each side).
TEST(HostParallel, HostFloatsHoldTheirValue) {
  const std::size_t n = (std::size_t(1) << 20) + 1;
  for (const float value : {0.0f, 1500.0f}) {
    const std::vector<float> v = seis::host_floats(n, value);
    ASSERT_EQ(v.size(), n);
    std::size_t wrong = 0;
    for (const float x : v) wrong += x != value;
    EXPECT_EQ(wrong, 0u) << value;
  }
  EXPECT_TRUE(seis::host_floats(0, 3.0f).empty());
}

// The GPU started while MPI starts must be the one the rank then uses: the launcher's local rank, 0 alone, nothing
// where the user chose or the launcher does not say.
TEST(Compat, LauncherLocalRankPicksTheGpuBeforeMpi) {
  std::vector<SavedVariable> saved;
  saved.reserve(9);
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID", "OMPI_COMM_WORLD_SIZE",
                           "PMI_SIZE", "PMIX_RANK", "SLURM_PROCID", "KOKKOS_DEVICE_ID", "KOKKOS_NUM_DEVICES"}) {
    saved.emplace_back(name);
    unsetenv(name);
  }
  std::string program = "seis-wave", chosen = "--kokkos-device-id=2";
  char* alone[] = {program.data(), nullptr};
  char* with_choice[] = {program.data(), chosen.data(), nullptr};
  EXPECT_EQ(seis::compat::launcher_local_rank(1, alone), 0);
  setenv("OMPI_COMM_WORLD_SIZE", "4", 1);
  EXPECT_EQ(seis::compat::launcher_local_rank(1, alone), -1);
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "3", 1);
  EXPECT_EQ(seis::compat::launcher_local_rank(1, alone), 3);
  EXPECT_EQ(seis::compat::launcher_local_rank(2, with_choice), -1);
  setenv("KOKKOS_DEVICE_ID", "1", 1);
  EXPECT_EQ(seis::compat::launcher_local_rank(1, alone), -1);
  unsetenv("KOKKOS_DEVICE_ID");
  unsetenv("OMPI_COMM_WORLD_LOCAL_RANK");
  setenv("SLURM_LOCALID", "5", 1);
  EXPECT_EQ(seis::compat::launcher_local_rank(1, alone), 5);
}

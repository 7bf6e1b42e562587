// The tuning cache: entries round-trip by key, other keys stay apart, a damaged file is set aside and rebuilt.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <sys/stat.h>

#include "seis/core/error.hpp"
#include "seis/io/tuning_cache.hpp"

namespace {

std::string fresh_path(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("seis-tuning-test-" + name);
  std::filesystem::remove_all(dir);
  return (dir / "nested" / "tuning.json").string();
}

TEST(TuningCache, EntriesRoundTripByKey) {
  const std::string path = fresh_path("roundtrip");
  seis::io::TuningKey key{"NVIDIA H100", "Cuda", "xyz_fused_async", "abc123", 4, "n512"};
  EXPECT_FALSE(seis::io::find_tuned(path, key).has_value());  // no file yet: an empty cache
  seis::io::TunedEntry entry;
  entry.options.vector_width = 4;
  entry.options.tile_x = 16;
  entry.options.tile_y = 16;
  entry.options.window = 64;
  entry.options.stages = 7;
  entry.seconds = 5.2e-4;
  entry.default_seconds = 5.4e-4;
  entry.date = "2026-11-23T00:00:00Z";
  seis::io::store_tuned(path, key, entry);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));

  auto other = key;
  other.radius = 8;
  EXPECT_FALSE(seis::io::find_tuned(path, other).has_value());
  seis::io::TunedEntry other_entry;
  other_entry.options.tile_x = 8;
  seis::io::store_tuned(path, other, other_entry);

  const auto found = seis::io::find_tuned(path, key);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->options.vector_width, 4);
  EXPECT_EQ(found->options.tile_x, 16);
  EXPECT_EQ(found->options.tile_y, 16);
  EXPECT_EQ(found->options.window, 64);
  EXPECT_EQ(found->options.stages, 7);
  EXPECT_DOUBLE_EQ(found->seconds, 5.2e-4);
  EXPECT_DOUBLE_EQ(found->default_seconds, 5.4e-4);
  EXPECT_EQ(found->date, entry.date);
  EXPECT_EQ(seis::io::find_tuned(path, other)->options.tile_x, 8);

  auto new_code = key;
  new_code.code_version = "def456";  // a kernel change leaves the old winner unused
  EXPECT_FALSE(seis::io::find_tuned(path, new_code).has_value());
}

// A damaged cache (truncated JSON, a list, a FIFO, a directory) never fails a run: it is set aside with a warning
// and the cache rebuilt beside it.
TEST(TuningCache, ADamagedCacheIsSetAsideAndRebuilt) {
  namespace fs = std::filesystem;
  const seis::io::TuningKey key{"d", "b", "k", "c", 4, "n64"};
  const seis::io::TunedEntry entry{{}, 1.0, 2.0, "2026-11-28"};
  for (const std::string damage : {"truncated", "list", "fifo", "directory"}) {
    const std::string path = fresh_path("damaged-" + damage);
    const fs::path dir = fs::path(path).parent_path();
    fs::create_directories(dir);
    if (damage == "truncated") std::ofstream(path) << "{\"truncated\": ";
    if (damage == "list") std::ofstream(path) << "[1, 2]";
    if (damage == "fifo") {
      ASSERT_EQ(::mkfifo(path.c_str(), 0644), 0);
    }
    if (damage == "directory") fs::create_directories(path);
    EXPECT_FALSE(seis::io::find_tuned(path, key).has_value()) << damage;
    EXPECT_FALSE(fs::exists(path)) << damage << ": not set aside";
    std::size_t aside = 0;
    for (const auto& f : fs::directory_iterator(dir))
      aside += f.path().filename().string().rfind("tuning.json.damaged-", 0) == 0;
    EXPECT_EQ(aside, 1u) << damage;
    seis::io::store_tuned(path, key, entry);
    const auto back = seis::io::find_tuned(path, key);
    ASSERT_TRUE(back.has_value()) << damage;
    EXPECT_EQ(back->seconds, 1.0);
  }
}

}  // namespace

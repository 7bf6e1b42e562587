// The tuning cache: entries round-trip by key, other keys stay apart, a corrupt file is refused by name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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

TEST(TuningCache, ACorruptFileIsRefusedByName) {
  const std::string path = fresh_path("corrupt");
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << "{\"truncated\": ";
  const seis::io::TuningKey key{"d", "b", "k", "c", 4, "n64"};
  try {
    seis::io::find_tuned(path, key);
    FAIL() << "a corrupt cache was read";
  } catch (const seis::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

}  // namespace

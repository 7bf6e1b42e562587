// Survey files, shot records, atomic writes and the output directory (seis/io/survey.hpp, atomic_file.hpp,
// output_directory.hpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "seis/core/error.hpp"
#include "seis/io/atomic_file.hpp"
#include "seis/io/output_directory.hpp"
#include "seis/io/survey.hpp"

namespace {

namespace fs = std::filesystem;
using seis::io::read_survey_text;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("seis-survey-test-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(Survey, SharedKeysHoldUnlessAShotSetsItsOwn) {
  const auto shots = read_survey_text(R"(receivers = "0,0,0:10,0,0:3"
f0 = 12.0
[[shot]]
source = "1,2,3"
[[shot]]
sources = ["4,5,6", "7,8,9"]
receivers = "1,1,1:2,2,2:2"
wavelet = "gaussian-derivative"
f0 = 8
)",
                                      "t.toml");
  ASSERT_EQ(shots.size(), 2u);
  EXPECT_EQ(shots[0].number, 1);
  EXPECT_EQ(shots[0].line, 3);
  EXPECT_EQ(shots[0].sources, std::vector<std::string>{"1,2,3"});
  EXPECT_EQ(shots[0].receivers, "0,0,0:10,0,0:3");
  EXPECT_FALSE(shots[0].wavelet);
  EXPECT_EQ(shots[0].f0, 12.0);
  EXPECT_EQ(shots[1].number, 2);
  EXPECT_EQ(shots[1].line, 5);
  EXPECT_EQ(shots[1].sources, (std::vector<std::string>{"4,5,6", "7,8,9"}));
  EXPECT_EQ(shots[1].receivers, "1,1,1:2,2,2:2");
  EXPECT_EQ(shots[1].wavelet, seis::wave::WaveletKind::gaussian_derivative);
  EXPECT_EQ(shots[1].f0, 8.0);
}

TEST(Survey, MalformedFilesAreRefusedWithTheirLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"[[shot]]\nsource = \"1,2,3\"\ndepth = 3\n", "t.toml line 3: unknown key 'depth'"},
      {"[[shot]]\nf0 = 3\n", "t.toml line 1: shot 1 has no source"},
      {"f0 = 3\n", "t.toml: no [[shot]] entries"},
      {"[[shot]]\nsource = 3\n", "t.toml line 2: 'source' must be a string"},
      {"f0 = \"high\"\n[[shot]]\nsource = \"1,2,3\"\n", "t.toml line 1: 'f0' must be a number"},
      {"[[shot]]\nsource = \"1,2,3\n", "t.toml line 2"},
      {"shot = 3\n", "t.toml line 1: 'shot' must be [[shot]] tables"}};
  for (const auto& [text, message] : cases) {
    try {
      read_survey_text(text, "t.toml");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const seis::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what() << "\nexpected: " << message;
    }
  }
}

TEST(Survey, RecordsReadBackAndCompletenessFollowsTheFiles) {
  const fs::path dir = scratch("records");
  seis::io::write_bytes_atomically((dir / "shot-00007.sgy").string(), "gather bytes");
  seis::io::ShotRecord r;
  r.number = 7;
  r.status = "done";
  r.group = 2;
  r.first_rank = 4;
  r.ranks = 2;
  r.host = "node";
  r.started = "2026-11-26T10:00:00Z";
  r.ended = "2026-11-26T10:00:05Z";
  r.seconds = 5.25;
  r.setup_seconds = 1.5;
  r.loop_seconds = 3.25;
  r.steps = 1000;
  r.gpts_per_s = 12.5;
  r.bytes_per_point = 52.75;
  r.files = {seis::io::record_file(dir.string(), "shot-00007.sgy")};
  EXPECT_EQ(r.files[0].bytes, 12u);
  seis::io::write_shot_record(dir.string(), r);
  const auto back = seis::io::read_shot_record(dir.string(), 7);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->status, "done");
  EXPECT_EQ(back->group, 2);
  EXPECT_EQ(back->first_rank, 4);
  EXPECT_EQ(back->seconds, 5.25);
  EXPECT_EQ(back->setup_seconds, 1.5);
  EXPECT_EQ(back->loop_seconds, 3.25);
  EXPECT_EQ(back->bytes_per_point, 52.75);
  EXPECT_EQ(back->files[0].crc32, r.files[0].crc32);
  EXPECT_TRUE(seis::io::shot_complete(dir.string(), *back));
  EXPECT_FALSE(seis::io::read_shot_record(dir.string(), 8).has_value());
  // The same size, one byte changed: the CRC tells.
  seis::io::write_bytes_atomically((dir / "shot-00007.sgy").string(), "gather bytez");
  EXPECT_FALSE(seis::io::shot_complete(dir.string(), *back));
  fs::remove(dir / "shot-00007.sgy");
  EXPECT_FALSE(seis::io::shot_complete(dir.string(), *back));
  // A record that does not parse is no record: the shot runs again.
  std::ofstream(dir / "shot-00007.json") << "{\"shot\": 7, \"status\": \"do";
  EXPECT_FALSE(seis::io::read_shot_record(dir.string(), 7).has_value());
}

TEST(AtomicFile, CRC32IsZlibsOfTheBytes) {
  const fs::path dir = scratch("crc");
  seis::io::write_bytes_atomically((dir / "a").string(), "123456789");
  EXPECT_EQ(seis::io::file_crc32((dir / "a").string()), 0xCBF43926u);  // the CRC-32 check value
}

TEST(AtomicFile, AFailedWriteLeavesTheOldFileAndNoTemporary) {
  const fs::path dir = scratch("atomic");
  const std::string path = (dir / "out.bin").string();
  seis::io::write_bytes_atomically(path, "old");
  EXPECT_THROW(seis::io::write_atomically(path, [](const std::string&) { throw std::runtime_error("disk full"); }),
               std::runtime_error);
  std::ifstream in(path);
  std::string text;
  in >> text;
  EXPECT_EQ(text, "old");
  EXPECT_FALSE(fs::exists(path + ".partial"));
  // A link planted under the temporary name is removed, not followed: its target keeps its bytes.
  seis::io::write_bytes_atomically((dir / "target").string(), "keep");
  fs::create_symlink(dir / "target", path + ".partial");
  seis::io::write_bytes_atomically(path, "new");
  std::ifstream target(dir / "target");
  target >> text;
  EXPECT_EQ(text, "keep");
  std::ifstream(path) >> text;
  EXPECT_EQ(text, "new");
}

}  // namespace

namespace {

// The output directory is checked before a run: an earlier run's outputs are refused without --overwrite and
// removed with it (and only they), a directory that cannot be made is refused, and so is one without room.
TEST(OutputDirectory, EarlierOutputsRefusedOrReplaced) {
  const fs::path dir = scratch("outputs");
  seis::io::prepare_output_directory(dir.string(), {});
  seis::io::write_bytes_atomically((dir / "seismogram.sgy").string(), "old");
  seis::io::write_bytes_atomically((dir / "snapshot-000010.f32").string(), "stale");
  seis::io::write_bytes_atomically((dir / "notes.txt").string(), "the user's");
  try {
    seis::io::prepare_output_directory(dir.string(), {});
    ADD_FAILURE() << "an earlier run's outputs were accepted";
  } catch (const seis::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("holds an earlier run's outputs (seismogram.sgy, snapshot-000010.f32)"),
              std::string::npos)
        << e.what();
  }
  seis::io::prepare_output_directory(dir.string(), {true, false, 0});  // a restart keeps them
  EXPECT_TRUE(fs::exists(dir / "seismogram.sgy"));
  // --overwrite removes nothing up front; after the new run wrote its seismogram, what it did not write goes.
  const seis::io::EarlierOutputs earlier = seis::io::prepare_output_directory(dir.string(), {false, true, 0});
  EXPECT_TRUE(fs::exists(dir / "seismogram.sgy"));
  EXPECT_TRUE(fs::exists(dir / "snapshot-000010.f32"));
  seis::io::write_bytes_atomically((dir / "seismogram.sgy").string(), "new");
  seis::io::remove_stale_outputs(earlier);
  EXPECT_TRUE(fs::exists(dir / "seismogram.sgy"));
  EXPECT_FALSE(fs::exists(dir / "snapshot-000010.f32"));
  EXPECT_TRUE(fs::exists(dir / "notes.txt"));
  // Another kind of run's records: refused whatever the flags.
  seis::io::write_bytes_atomically((dir / "survey.json").string(), "{}");
  EXPECT_THROW(seis::io::prepare_output_directory(dir.string(), {false, true, 0}), seis::InvalidArgument);
  fs::remove(dir / "survey.json");
  EXPECT_THROW(seis::io::prepare_output_directory((dir / "notes.txt" / "x").string(), {}), seis::InvalidArgument);
  EXPECT_THROW(seis::io::prepare_output_directory(dir.string(), {false, false, std::uintmax_t(1) << 62}),
               seis::InvalidArgument);
}

}  // namespace

// A survey's shots as the workflows see them (seis/runs/survey_shots.hpp): the single run each entry stands for, which
// shots a restart runs, and how shots are dealt to the groups that run them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "seis/io/survey.hpp"
#include "seis/mpi/world.hpp"
#include "seis/runs/survey_shots.hpp"

namespace {

namespace fs = std::filesystem;
using seis::io::SurveyShot;

const std::vector<SurveyShot> four_shots() {
  return seis::io::read_survey_text(R"(receivers = "100,100,50:500,100,50:9"
f0 = 9.0
[[shot]]
source = "300,100,60"
[[shot]]
source = "400,100,60"
receivers = "100,200,70:500,200,70:5"
wavelet = "gaussian-derivative"
[[shot]]
sources = ["200,100,60", "250,100,60"]
f0 = 6.5
[[shot]]
source = "450,100,60"
)",
                                    "survey.toml");
}

// Each entry is the run its flags make: its sources, the shared keys unless it sets its own, its number as the
// field record; everything else is the run's.
TEST(Shots, AnEntryIsTheSingleRunItsFlagsMake) {
  seis::io::RunConfig run;
  run.receivers = "100,100,50:500,100,50:9";
  run.f0 = 9.0;
  run.wavelet = seis::wave::WaveletKind::ricker;
  run.grid = {48, 40, 36};
  const auto shots = four_shots();
  const auto first = seis::runs::shot_config(run, shots[0]), second = seis::runs::shot_config(run, shots[1]),
             third = seis::runs::shot_config(run, shots[2]);
  EXPECT_EQ(first.sources, std::vector<std::string>{"300,100,60"});
  EXPECT_EQ(first.receivers, run.receivers);
  EXPECT_EQ(first.wavelet, seis::wave::WaveletKind::ricker);
  EXPECT_EQ(first.f0, 9.0);
  EXPECT_EQ(first.shot, 1);
  EXPECT_EQ(second.receivers, "100,200,70:500,200,70:5");
  EXPECT_EQ(second.wavelet, seis::wave::WaveletKind::gaussian_derivative);
  EXPECT_EQ(second.f0, 9.0);
  EXPECT_EQ(second.shot, 2);
  EXPECT_EQ(third.sources, (std::vector<std::string>{"200,100,60", "250,100,60"}));
  EXPECT_EQ(third.f0, 6.5);
  EXPECT_EQ(third.receivers, run.receivers);
  EXPECT_EQ(third.shot, 3);
  EXPECT_EQ(third.grid, run.grid);
}

struct Directory {
  std::string path = (fs::temp_directory_path() / ("shots-" + std::to_string(::getpid()))).string();
  Directory() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Directory() { fs::remove_all(path); }
};

// A shot's record as a run leaves it: `status`, and a gather of `bytes` listed with its size and CRC.
void leave_record(const std::string& directory, int number, const std::string& status, const std::string& print) {
  const std::string gather = seis::io::shot_stem(number) + ".sgy";
  std::ofstream(directory + "/" + gather) << std::string(std::size_t(100 + number), char('a' + number));
  seis::io::ShotRecord r;
  r.number = number;
  r.status = status;
  r.fingerprint = print;
  r.files = {seis::io::record_file(directory, gather)};
  seis::io::write_shot_record(directory, r);
}

// Shot 1 done, 2 left running by a kill, 3 done but its gather damaged since, 4 never started: a restart runs 2, 3
// and 4 in the file's order and keeps 1; a complete shot run with other inputs is refused before any runs; a new
// survey refuses the directory.
TEST(Shots, ARestartRunsExactlyTheShotsNotComplete) {
  const Directory out;
  const auto shots = four_shots();
  leave_record(out.path, 1, "done", "f0 9");
  leave_record(out.path, 2, "running", "f0 9");
  leave_record(out.path, 3, "done", "f0 9");
  std::ofstream(out.path + "/" + seis::io::shot_stem(3) + ".sgy", std::ios::app) << "x";
  seis::io::RunConfig run;
  run.output = out.path;
  run.survey = "survey.toml";
  run.restart = true;
  const auto same = [](const SurveyShot&) { return std::string("f0 9"); };
  std::vector<seis::io::ShotRecord> records;
  int skipped = -1;
  EXPECT_EQ(seis::runs::shots_to_run(run, shots, same, records, skipped), (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(skipped, 1);
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[0].status, "done");
  EXPECT_EQ(records[1].status, "pending");

  records.clear();
  seis::test::expect_error_mentioning(
      [&] {
        seis::runs::shots_to_run(
            run, shots, [](const SurveyShot&) { return std::string("f0 8"); }, records, skipped);
      },
      "shot-00001 (survey survey.toml line 3) was run with other inputs");
  run.restart = false;
  seis::test::expect_error_mentioning([&] { seis::runs::shots_to_run(run, shots, same, records, skipped); },
                                      "holds an earlier survey's shot-00001.json");
}

// Every shot to exactly one group, each once, in the counter's order; the dealing stops at the last.
TEST(Shots, EachShotIsDealtOnce) {
  int argc = 1;
  char name[] = "tstShots";
  char* args[] = {name, nullptr};
  char** argv = args;
  const auto world = std::make_unique<seis::mpi::World>(argc, argv);
  for (const std::size_t count : {std::size_t(0), std::size_t(1), std::size_t(7)}) {
    for (const bool groups : {false, true}) {
      seis::mpi::SharedCounter counter(*world);
      const auto group = world->split(0);
      std::vector<std::size_t> dealt;
      seis::runs::deal_shots(counter, groups ? group.get() : nullptr, count,
                             [&](std::size_t n) { dealt.push_back(n); });
      std::vector<std::size_t> once(count);
      for (std::size_t n = 0; n < count; ++n) once[n] = n;
      EXPECT_EQ(dealt, once) << count << " shots, " << (groups ? "in a group" : "rank by rank");
    }
  }
}

}  // namespace

#pragma once
// A survey: many shots over one model, each a separate simulation whose gather is kept. The survey file (TOML), the
// per-shot records that say what became of each shot, and the manifest that gathers them. Host-only.
//
//   # keys before the first [[shot]]: every shot's, unless it sets its own
//   receivers = "200,1000,60:2800,1000,60:131"   # X0,Y0,Z0:X1,Y1,Z1:N (m), as --receivers
//   wavelet = "ricker"                           # as --wavelet
//   f0 = 12.0                                    # Hz, as --f0
//   [[shot]]
//   source = "1000,1000,60"                      # X,Y,Z (m); or sources = ["X,Y,Z", ...], fired together
//   [[shot]]
//   source = "2000,1000,60"
//   f0 = 8.0
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "seis/wave/setup.hpp"

namespace seis::io {

constexpr std::uintmax_t max_survey_bytes = std::uintmax_t(16) << 20;
constexpr int max_survey_shots = 100'000;

struct SurveyShot {
  int number = 0;  // 1, 2, ... in the file's order: the field record number and the file names' NNNNN
  int line = 0;    // the file's line of its [[shot]]
  std::vector<std::string> sources;
  std::string receivers;                     // empty: the run's
  std::optional<wave::WaveletKind> wavelet;  // none: the run's
  std::optional<double> f0;                  // none: the run's
};

// Refuses (seis::InvalidArgument, naming the file and line) a file larger than max_survey_bytes or with more than
// max_survey_shots shots (before it is parsed whole), a file that does not parse, unknown keys, values of the
// wrong type, a shot without a source, and a survey without shots. Sources and receivers are checked against the
// grid by the caller (wave::validate_shot), which names the shot's line too.
std::vector<SurveyShot> read_survey(const std::string& path);
std::vector<SurveyShot> read_survey_text(const std::string& text, const std::string& name);

// "shot-00012": the stem of a shot's files in the output directory.
std::string shot_stem(int number);

struct RecordedFile {
  std::string name;  // in the output directory
  std::uintmax_t bytes = 0;
  std::uint32_t crc32 = 0;
};

// What became of one shot, kept as OUTPUT/shot-NNNNN.json (written atomically at its start and its end).
struct ShotRecord {
  int number = 0;
  std::string kind = "survey";     // survey (modelling) or migration: which run's record
  std::string fingerprint;         // a survey's shot: what shaped its gather (app::shot_fingerprint)
  std::string status = "pending";  // pending, running, done, failed
  int group = -1;                  // the rank group that ran it, and its first world rank
  int first_rank = -1;
  int ranks = 0;
  std::string host, started, ended;  // ISO 8601 UTC
  double seconds = 0;                // wall time, set-up and writing included
  double setup_seconds = 0;          // building the group's simulation (its first shot; later shots reuse it)
  double loop_seconds = 0;           // the time loop
  int steps = 0;
  double gpts_per_s = 0;  // grid points per second of the time loop
  // A migration's shot: its forward pass, and its backward pass (segments re-run, receiver wavefield, imaging).
  double forward_seconds = 0, backward_seconds = 0;
  double gb_per_s = 0;         // a migration's compulsory bytes over its time
  double bytes_per_point = 0;  // a migration's compulsory bytes per grid point and step, both passes together
  double percent_of_copy = 0;  // gb_per_s against the run's copy yardstick
  std::string copy_caveat;     // why that share is not meaningful (empty: it is; seis/io/copy_share.hpp)
  std::string error;           // a failed shot's message
  std::vector<RecordedFile> files;
};

void write_shot_record(const std::string& directory, const ShotRecord& record);
// The shot's record, or none where it has none (or one that cannot be read, which is then run again).
std::optional<ShotRecord> read_shot_record(const std::string& directory, int number);
// Done, and every file it lists still there with its size and CRC-32: a restart need not run it again.
bool shot_complete(const std::string& directory, const ShotRecord& record);
// A file of the output directory as a record lists it.
RecordedFile record_file(const std::string& directory, const std::string& name);

struct SurveySummary {
  std::string survey_file, started, ended;
  int ranks = 0, ranks_per_shot = 0, restarts_skipped = 0;
  double wall_seconds = 0;
  double model_bytes_read = 0;              // over every rank: a model file's size once per node
  std::map<std::string, double> migration;  // a migration's plan and totals, as "migration" (none: omitted)
  std::string imaging_condition;            // a migration's, in "migration"
};
// OUTPUT/survey.json: the summary, counts by status and every shot's record (pending where it has none).
void write_manifest(const std::string& path, const SurveySummary& summary, const std::vector<ShotRecord>& shots);
// The manifest at PATH with one shot's record replaced and the counts redone, under a lock (PATH.lock) that the
// groups' leaders take in turn: the manifest is current after every shot, also after a kill.
void update_manifest(const std::string& path, const ShotRecord& record);

}  // namespace seis::io

// Survey files (toml++), shot records and the manifest (nlohmann-json), written atomically.
#include "seis/io/survey.hpp"

#include <toml++/toml.h>

#include <sys/file.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

#include "seis/core/error.hpp"
#include "seis/io/atomic_file.hpp"
#include "seis/io/input_file.hpp"

namespace seis::io {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

int line_of(const toml::node& node) { return static_cast<int>(node.source().begin.line); }

std::string text_value(const toml::node& node, const std::string& name, const std::string& key) {
  const auto value = node.value<std::string>();
  require(value.has_value() && node.is_string(), "survey ", name, " line ", line_of(node), ": '", key,
          "' must be a string");
  return *value;
}

double number_value(const toml::node& node, const std::string& name, const std::string& key) {
  require(node.is_number(), "survey ", name, " line ", line_of(node), ": '", key, "' must be a number");
  return *node.value<double>();
}

// The keys a shot may set, before its first [[shot]] (for every shot) or in it.
void read_shot_keys(const toml::table& table, const std::string& name, SurveyShot& shot, bool in_shot) {
  for (const auto& [key, node] : table) {
    const std::string k(key.str());
    if (k == "receivers") {
      shot.receivers = text_value(node, name, k);
    } else if (k == "wavelet") {
      try {
        shot.wavelet = wave::parse_wavelet(text_value(node, name, k));
      } catch (const InvalidArgument& e) {
        fail("survey ", name, " line ", line_of(node), ": ", e.what());
      }
    } else if (k == "f0") {
      shot.f0 = number_value(node, name, k);
    } else if (in_shot && k == "source") {
      shot.sources.push_back(text_value(node, name, k));
    } else if (in_shot && k == "sources") {
      const toml::array* list = node.as_array();
      require(list != nullptr && !list->empty(), "survey ", name, " line ", line_of(node),
              ": 'sources' must be a list of \"X,Y,Z\" strings");
      for (const auto& item : *list) shot.sources.push_back(text_value(item, name, k));
    } else if (!in_shot && k == "shot") {
      continue;
    } else {
      fail("survey ", name, " line ", line_of(node), ": unknown key '", k, "' (", in_shot ? "a shot" : "the survey",
           " takes ", in_shot ? "source, sources, " : "", "receivers, wavelet, f0", in_shot ? "" : " and [[shot]]",
           ")");
    }
  }
}

json file_json(const RecordedFile& f) { return {{"name", f.name}, {"bytes", f.bytes}, {"crc32", f.crc32}}; }

json record_json(const ShotRecord& r) {
  json files = json::array();
  for (const auto& f : r.files) files.push_back(file_json(f));
  return {{"shot", r.number},
          {"kind", r.kind},
          {"fingerprint", r.fingerprint},
          {"status", r.status},
          {"group", r.group},
          {"first_rank", r.first_rank},
          {"ranks", r.ranks},
          {"host", r.host},
          {"started", r.started},
          {"ended", r.ended},
          {"seconds", r.seconds},
          {"setup_seconds", r.setup_seconds},
          {"loop_seconds", r.loop_seconds},
          {"steps", r.steps},
          {"gpts_per_s", r.gpts_per_s},
          {"forward_seconds", r.forward_seconds},
          {"backward_seconds", r.backward_seconds},
          {"gb_per_s", r.gb_per_s},
          {"compulsory_bytes_per_point", r.bytes_per_point},
          {"percent_of_copy", r.percent_of_copy},
          {"percent_of_copy_caveat", r.copy_caveat},
          {"error", r.error},
          {"files", files}};
}

std::string record_path(const std::string& directory, int number) {
  return (fs::path(directory) / (shot_stem(number) + ".json")).string();
}

}  // namespace

std::vector<SurveyShot> read_survey_text(const std::string& text, const std::string& name) {
  toml::table table;
  try {
    table = toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    fail("survey ", name, " line ", e.source().begin.line, ": ", e.description());
  }
  SurveyShot shared;
  read_shot_keys(table, name, shared, false);
  const toml::node* list = table.get("shot");
  require(list != nullptr, "survey ", name, ": no [[shot]] entries");
  const toml::array* shots = list->as_array();
  require(shots != nullptr, "survey ", name, " line ", line_of(*list), ": 'shot' must be [[shot]] tables");
  require(shots->size() <= std::size_t(max_survey_shots), "survey ", name, ": ", shots->size(), " shots, at most ",
          max_survey_shots);
  std::vector<SurveyShot> out;
  for (const auto& entry : *shots) {
    const toml::table* t = entry.as_table();
    require(t != nullptr, "survey ", name, " line ", line_of(entry), ": 'shot' must be [[shot]] tables");
    SurveyShot shot = shared;
    shot.number = int(out.size()) + 1;
    shot.line = line_of(entry);
    read_shot_keys(*t, name, shot, true);
    require(!shot.sources.empty(), "survey ", name, " line ", shot.line, ": shot ", shot.number,
            " has no source (source = \"X,Y,Z\" or sources = [...])");
    out.push_back(shot);
  }
  require(!out.empty(), "survey ", name, ": no [[shot]] entries");
  return out;
}

std::vector<SurveyShot> read_survey(const std::string& path) {
  require_regular_file(path, "survey");
  std::error_code error;
  const std::uintmax_t size = fs::file_size(path, error);
  require(!error && size <= max_survey_bytes, "survey ", path, ": ", size, " bytes, at most ", max_survey_bytes, " (",
          max_survey_shots, " shots)");
  std::ifstream file(path);
  require(file.good(), "survey ", path, " cannot be read");
  std::stringstream text;
  text << file.rdbuf();
  return read_survey_text(text.str(), path);
}

std::string shot_stem(int number) {
  std::ostringstream stem;
  stem << "shot-" << std::setw(5) << std::setfill('0') << number;
  return stem.str();
}

RecordedFile record_file(const std::string& directory, const std::string& name) {
  const std::string path = (fs::path(directory) / name).string();
  return {name, fs::file_size(path), file_crc32(path)};
}

void write_shot_record(const std::string& directory, const ShotRecord& record) {
  write_bytes_atomically(record_path(directory, record.number), record_json(record).dump(2) + "\n");
}

std::optional<ShotRecord> read_shot_record(const std::string& directory, int number) {
  if (!regular_file_or_none(record_path(directory, number), "shot record")) return std::nullopt;
  std::ifstream in(record_path(directory, number));
  if (!in.good()) return std::nullopt;
  try {
    const json j = json::parse(in);
    ShotRecord r;
    r.number = j.at("shot").get<int>();
    r.kind = j.value("kind", std::string("survey"));  // records of earlier versions: a modelling survey's
    r.fingerprint = j.value("fingerprint", std::string());
    r.status = j.at("status").get<std::string>();
    r.group = j.at("group").get<int>();
    r.first_rank = j.at("first_rank").get<int>();
    r.ranks = j.at("ranks").get<int>();
    r.host = j.at("host").get<std::string>();
    r.started = j.at("started").get<std::string>();
    r.ended = j.at("ended").get<std::string>();
    r.seconds = j.at("seconds").get<double>();
    r.setup_seconds = j.value("setup_seconds", 0.0);  // records before 0.1's second survey stop lack them
    r.loop_seconds = j.value("loop_seconds", 0.0);
    r.steps = j.at("steps").get<int>();
    r.gpts_per_s = j.at("gpts_per_s").get<double>();
    r.forward_seconds = j.value("forward_seconds", 0.0);
    r.backward_seconds = j.value("backward_seconds", 0.0);
    r.gb_per_s = j.value("gb_per_s", 0.0);
    r.bytes_per_point = j.value("compulsory_bytes_per_point", 0.0);
    r.percent_of_copy = j.value("percent_of_copy", 0.0);
    r.copy_caveat = j.value("percent_of_copy_caveat", std::string());
    r.error = j.at("error").get<std::string>();
    for (const auto& f : j.at("files"))
      r.files.push_back(
          {f.at("name").get<std::string>(), f.at("bytes").get<std::uintmax_t>(), f.at("crc32").get<std::uint32_t>()});
    if (r.number != number) return std::nullopt;
    return r;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

bool shot_complete(const std::string& directory, const ShotRecord& record) {
  if (record.status != "done" || record.files.empty()) return false;
  for (const auto& f : record.files) {
    const fs::path path = fs::path(directory) / f.name;
    std::error_code error;
    if (!fs::is_regular_file(path, error) || fs::file_size(path, error) != f.bytes || error) return false;
    if (file_crc32(path.string()) != f.crc32) return false;
  }
  return true;
}

namespace {

json status_counts(const json& list) {
  std::map<std::string, int> counts{{"done", 0}, {"failed", 0}, {"running", 0}, {"pending", 0}};
  for (const auto& r : list) ++counts[r.value("status", std::string("pending"))];
  return counts;
}

}  // namespace

void update_manifest(const std::string& path, const ShotRecord& record) {
  const std::string lock_path = path + ".lock";
  const int lock = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW, 0644);
  require(lock >= 0, "cannot open ", lock_path, ": ", std::strerror(errno));
  ::flock(lock, LOCK_EX);
  try {
    json manifest;
    std::error_code error;
    if (fs::is_regular_file(path, error)) {
      std::ifstream in(path);
      manifest = json::parse(in, nullptr, false);
    }
    if (manifest.is_object() && manifest.contains("shot") && manifest["shot"].is_array()) {
      for (auto& entry : manifest["shot"])
        if (entry.value("shot", 0) == record.number) entry = record_json(record);
      manifest["status"] = status_counts(manifest["shot"]);
      write_bytes_atomically(path, manifest.dump(2) + "\n");
    }
  } catch (...) {
    ::close(lock);  // releases the lock
    throw;
  }
  ::close(lock);
}

void write_manifest(const std::string& path, const SurveySummary& s, const std::vector<ShotRecord>& shots) {
  json list = json::array();
  for (const auto& r : shots) list.push_back(record_json(r));
  const json counts = status_counts(list);
  json manifest = {{"survey", s.survey_file},
                   {"started", s.started},
                   {"ended", s.ended},
                   {"wall_seconds", s.wall_seconds},
                   {"ranks", s.ranks},
                   {"ranks_per_shot", s.ranks_per_shot},
                   {"shots", shots.size()},
                   {"skipped_as_complete", s.restarts_skipped},
                   {"model_bytes_read", s.model_bytes_read},
                   {"status", counts},
                   {"shot", list}};
  if (!s.migration.empty()) {
    manifest["migration"] = s.migration;
    manifest["migration"]["imaging_condition"] = s.imaging_condition;
  }
  write_bytes_atomically(path, manifest.dump(2) + "\n");
}

}  // namespace seis::io

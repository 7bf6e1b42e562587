#include "seis/runs/survey_shots.hpp"

#include <sstream>

#include <unistd.h>

#include "seis/core/compat.hpp"
#include "seis/core/error.hpp"
#include "seis/io/fingerprint.hpp"
#include "seis/runs/run_setup.hpp"
#include "seis/runs/shot_run.hpp"

namespace seis::runs {

io::RunConfig shot_config(const io::RunConfig& c, const io::SurveyShot& shot) {
  io::RunConfig s = c;
  s.sources = shot.sources;
  if (!shot.receivers.empty()) s.receivers = shot.receivers;
  if (shot.wavelet) s.wavelet = *shot.wavelet;
  if (shot.f0) s.f0 = *shot.f0;
  s.shot = shot.number;
  return s;
}

std::vector<int> shots_to_run(const io::RunConfig& c, const std::vector<io::SurveyShot>& shots,
                              const std::function<std::string(const io::SurveyShot&)>& expected,
                              std::vector<io::ShotRecord>& records, int& skipped) {
  std::vector<int> pending;
  skipped = 0;
  for (const io::SurveyShot& shot : shots) {
    const auto record = io::read_shot_record(c.output, shot.number);
    require(c.restart || !record, "--output ", c.output, " holds an earlier survey's ", io::shot_stem(shot.number),
            ".json: --restart resumes that survey; a new one needs another --output");
    if (record && io::shot_complete(c.output, *record)) {
      const std::string now = expected(shot);
      require(record->fingerprint == now, "--restart: ", io::shot_stem(shot.number), " (survey ", c.survey, " line ",
              shot.line, ") was run with other inputs than this restart's; they differ in ",
              record->fingerprint.empty() ? std::string("everything (its record holds no fingerprint)")
                                          : io::fingerprint_difference(record->fingerprint, now, "its record"),
              ". A restart continues the same survey: run the new one with another --output");
      records.push_back(*record);
      ++skipped;
      continue;
    }
    io::ShotRecord r;
    r.number = shot.number;
    records.push_back(r);
    pending.push_back(shot.number);
  }
  return pending;
}

void deal_shots(mpi::SharedCounter& counter, const mpi::World* group, std::size_t count,
                const std::function<void(std::size_t)>& run) {
  while (true) {
    std::string next = group == nullptr || group->rank() == 0 ? std::to_string(counter.next()) : std::string();
    if (group != nullptr) group->broadcast(next);
    const std::size_t n = std::stoul(next);
    if (n >= count) return;
    run(n);
  }
}

std::vector<io::SurveyShot> run_shots(const io::RunConfig& c) {
  if (!c.survey.empty()) return io::read_survey(c.survey);
  io::SurveyShot shot;
  shot.number = c.shot;
  shot.sources = c.sources;
  return {shot};
}

void validate_shots(const io::RunConfig& c, const std::vector<io::SurveyShot>& shots, wave::Setup& s,
                    const std::function<void(const wave::Setup&)>& also) {
  for (const io::SurveyShot& shot : shots) try {
      place_shot(shot_config(c, shot), s);
      wave::validate_shot(s);
      if (also) also(s);
    } catch (const std::exception& e) {
      fail("survey ", c.survey, " line ", shot.line, " (shot ", shot.number, "): ", e.what());
    }
}

std::string host_name() {
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  return name;
}

MemoryAvailable memory_available(const mpi::World& world) {
  MemoryAvailable m;
  m.host_fields = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Exec::memory_space>::accessible;
  m.host = compat::host_available_bytes() / std::size_t(world.local_size());
  m.fields = m.host_fields ? m.host : compat::available_memory_bytes();
  return m;
}

std::string to_text(const std::vector<int>& values) {
  std::ostringstream out;
  for (int v : values) out << v << " ";
  return out.str();
}

std::vector<int> from_text(const std::string& text) {
  std::istringstream in(text);
  std::vector<int> values;
  for (int v = 0; in >> v;) values.push_back(v);
  return values;
}

}  // namespace seis::runs

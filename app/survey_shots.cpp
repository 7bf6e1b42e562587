#include "survey_shots.hpp"

#include <sstream>

#include <unistd.h>

#include "run_setup.hpp"
#include "seis/core/compat.hpp"
#include "seis/core/error.hpp"
#include "shot_run.hpp"

namespace seis::app {

io::RunConfig shot_config(const io::RunConfig& c, const io::SurveyShot& shot) {
  io::RunConfig s = c;
  s.sources = shot.sources;
  if (!shot.receivers.empty()) s.receivers = shot.receivers;
  if (!shot.wavelet.empty()) s.wavelet = shot.wavelet;
  if (shot.f0) s.f0 = *shot.f0;
  s.shot = shot.number;
  return s;
}

void validate_shots(const io::RunConfig& c, const std::vector<io::SurveyShot>& shots, wave::Setup& s,
                    const std::function<void(const wave::Setup&)>& also) {
  bool warned = false;
  for (const io::SurveyShot& shot : shots) try {
      place_shot(shot_config(c, shot), s);
      wave::validate_shot(s);
      check_layer_positions(c, s, warned);
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

}  // namespace seis::app

#include "seis/runs/shot_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <sstream>
#include <stdexcept>

#include "seis/core/compat.hpp"
#include "seis/io/outputs.hpp"
#include "seis/io/picture.hpp"
#include "seis/wave/resample.hpp"
#include "seis_build_info.hpp"

namespace seis::runs {

namespace {
// Beyond this |u| a run has gone unstable: a field from sources of unit amplitude stays many orders of magnitude
// below it at any spacing a model uses, and float32 overflows soon after.
constexpr float blow_up = 1e30f;
}  // namespace

StepTiming run_steps(wave::Simulation<Exec>& sim, const std::vector<int>& stop_every,
                     const std::function<void(int)>& at_stop,
                     const std::function<void(int, const StepTiming&)>& after_chunk) {
  const int last = sim.setup().steps;
  StepTiming timing;
  int chunk = 2;
  while (sim.step() < last) {
    int next = std::min(last, sim.step() + chunk);
    for (int every : stop_every)
      if (every > 0) next = std::min(next, (sim.step() / every + 1) * every);
    const int count = next - sim.step();
    const auto start = std::chrono::steady_clock::now();
    sim.advance(count);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    timing.seconds += seconds;
    timing.steps += count;
    // Chunks of about a tenth of a second keep the progress line and the stop checks responsive.
    chunk = std::max(1, int(0.1 / std::max(seconds / count, 1e-9)));
    chunk += chunk % 2;
    const int step = sim.step();
    // Before any checkpoint of this step: a state that has gone unstable is never saved.
    const float largest = sim.largest_magnitude();
    if (!(largest <= blow_up)) {
      std::ostringstream message;
      message << "the wavefield blew up at step " << step << " (t = " << step * sim.setup().dt
              << " s): largest |u| = " << largest << ", above " << blow_up
              << "; stopped there (checkpoints written before it are kept)";
      throw std::runtime_error(message.str());
    }
    bool stop = false;
    for (int every : stop_every) stop = stop || (every > 0 && step % every == 0);
    if (stop && step < last) at_stop(step);
    after_chunk(step, timing);
  }
  return timing;
}

std::vector<float> gathered_traces(const wave::Simulation<Exec>& sim, const mpi::World& world) {
  std::vector<float> corners = sim.corner_traces();
  world.reduce_sum(corners);
  return wave::sum_corners(corners, sim.setup().receivers.size(), sim.setup().steps, sim.step());
}

Seismogram seismogram_of(double requested, const wave::Setup& setup) {
  Seismogram s;
  s.trace_dt = requested > 0 ? requested : wave::default_trace_interval(setup.dt);
  s.samples = wave::trace_samples(setup.steps, setup.dt, s.trace_dt);
  io::check_seismogram(s.samples, s.trace_dt);
  s.bytes = io::seismogram_bytes(setup.receivers.size(), s.samples);
  return s;
}

namespace {

// Receivers evenly spaced along a line are placed by their distance from the first; others are numbered.
io::PictureAxis receiver_axis(const std::vector<wave::Point>& r) {
  const std::size_t n = r.size();
  const double dx = r[n - 1].x - r[0].x, dy = r[n - 1].y - r[0].y, dz = r[n - 1].z - r[0].z;
  const double length = std::sqrt(dx * dx + dy * dy + dz * dz);
  bool line = n > 1 && length > 0;
  for (std::size_t i = 0; line && i < n; ++i) {
    const double f = double(i) / double(n - 1);
    const double ex = r[i].x - (r[0].x + f * dx), ey = r[i].y - (r[0].y + f * dy), ez = r[i].z - (r[0].z + f * dz);
    line = std::sqrt(ex * ex + ey * ey + ez * ez) <= 1e-6 * length;
  }
  if (line) return {"distance along the receiver line (m)", 0.0, length};
  return {"receiver", 1.0, double(n)};
}

}  // namespace

Gather gather_of(const wave::Setup& setup, std::vector<float> traces) {
  return {std::move(traces), setup.receivers, setup.sources[0], setup.steps, setup.dt};
}

namespace {

// The gain of a gather picture (io::GatherGain), in place on `gather` ([sample][receiver]), and its words for the
// title and the colour bar.
std::pair<std::string, std::string> apply_gain(std::vector<float>& gather, std::size_t receivers, int samples,
                                               double dt, const io::GatherGain& gain) {
  if (gain.kind == io::GatherGain::Kind::none) return {"raw", "u (source units / m)"};
  if (gain.kind == io::GatherGain::Kind::t2) {
    for (int n = 0; n < samples; ++n)
      for (std::size_t r = 0; r < receivers; ++r) gather[std::size_t(n) * receivers + r] *= float(n * dt * n * dt);
    return {"gain t^2", "u t^2 (source units s^2 / m)"};
  }
  // AGC: each sample over the RMS of its trace in a window centred on it; windows quieter than 1e-3 of the loudest
  // are divided by that floor instead, so that numerical noise before the first arrival stays quiet.
  const int half = std::max(1, int(std::lround(gain.window / (2 * dt))));
  std::vector<double> rms(gather.size());
  double loudest = 0;
  for (std::size_t r = 0; r < receivers; ++r) {
    double sum = 0;
    int count = 0;
    for (int n = 0; n < std::min(half, samples); ++n, ++count)
      sum += double(gather[std::size_t(n) * receivers + r]) * gather[std::size_t(n) * receivers + r];
    for (int n = 0; n < samples; ++n) {
      if (n + half < samples) {
        const double v = gather[std::size_t(n + half) * receivers + r];
        sum += v * v, ++count;
      }
      if (n - half - 1 >= 0) {
        const double v = gather[std::size_t(n - half - 1) * receivers + r];
        sum -= v * v, --count;
      }
      rms[std::size_t(n) * receivers + r] = std::sqrt(std::max(sum, 0.0) / count);
      loudest = std::max(loudest, rms[std::size_t(n) * receivers + r]);
    }
  }
  const double floor = loudest > 0 ? 1e-3 * loudest : 1;
  for (std::size_t i = 0; i < gather.size(); ++i) gather[i] = float(gather[i] / std::max(rms[i], floor));
  std::ostringstream words;
  words << "AGC " << gain.window << " s";
  return {words.str(), "u / its RMS over " + std::to_string(int(std::lround(gain.window * 1000))) + " ms"};
}

}  // namespace

void write_gather(const std::string& segy, const std::string& png, const Gather& g, const Seismogram& seismogram,
                  int record, const io::GatherGain& gain) {
  const std::size_t receivers = g.receivers.size();
  const int samples = seismogram.samples;
  const std::vector<float> traces = wave::resample_traces(g.traces, int(receivers), g.steps, g.dt, seismogram.trace_dt);
  io::write_seismogram(segy, traces, samples, seismogram.trace_dt, g.receivers, g.source, record);
  std::vector<float> gather(traces.size());
  for (std::size_t r = 0; r < receivers; ++r)
    for (int n = 0; n < samples; ++n) gather[std::size_t(n) * receivers + r] = traces[r * samples + std::size_t(n)];
  const auto [gained, quantity] = apply_gain(gather, receivers, samples, seismogram.trace_dt, gain);
  io::Picture picture;
  picture.title = "shot " + std::to_string(record) + ": the receivers' traces, " + gained;
  picture.horizontal = receiver_axis(g.receivers);
  picture.vertical = {"time (s)", 0.0, (samples - 1) * seismogram.trace_dt};
  picture.quantity = quantity;
  picture.percentile = 97;  // so that the reflections show beside the direct wave
  picture.width = 600;
  picture.height = 800;
  io::write_picture(png, gather, samples, int(receivers), picture);
}

double seconds_since_start() {
  static const auto start = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string date_now() {
  const std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return date;
}

io::RunFacts build_facts() {
  io::RunFacts facts;
  facts.device = compat::device_name<Exec>();
  facts.backend = Exec::name();
  facts.kokkos = compat::kokkos_version();
  facts.compiler = build_info::compiler;
  facts.commit = build_info::git_commit;
  facts.dirty = build_info::git_dirty;
  facts.thread_placement = compat::thread_placement<Exec>();
  facts.date = date_now();
  return facts;
}

}  // namespace seis::runs

#include "seis/runs/migration_run.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <future>
#include <iomanip>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "seis/core/compat.hpp"
#include "seis/core/error.hpp"
#include "seis/imaging/migration.hpp"
#include "seis/imaging/shot_data.hpp"
#include "seis/io/atomic_file.hpp"
#include "seis/io/copy_share.hpp"
#include "seis/io/fingerprint.hpp"
#include "seis/io/gather.hpp"
#include "seis/io/output_directory.hpp"
#include "seis/io/picture.hpp"
#include "seis/io/stack_file.hpp"
#include "seis/io/survey.hpp"
#include "seis/io/volume.hpp"
#include "seis/runs/observed_gather.hpp"
#include "seis/runs/run_setup.hpp"
#include "seis/runs/survey_shots.hpp"
#include "seis/wave/padding.hpp"
#include "seis/wave/resample.hpp"

namespace seis::runs {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The generation of a stack file (stack-gGGGGG-rRRRRR.bin: the run that wrote it), 0 for another name.
int stack_generation(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  return name.size() > 8 && name[6] == 'g' ? std::atoi(name.c_str() + 7) : 0;
}

// What shapes a stack: the migration's parameters (the grid, numerics, model and its smoothing, imaging condition
// and interval, mute) and, for each shot it holds, the shot's positions, wavelet and observed data (its gather's
// CRC-32). A restart compares each stack's with this run's before any shot is imaged.
class StackPrint {
 public:
  StackPrint(const io::RunConfig& c, const wave::Setup& s, const imaging::MigrationPlan& plan,
             const std::vector<io::SurveyShot>& shots)
      : c_(c), s_(s), shots_(shots) {
    std::ostringstream f;
    f << grid_fingerprint(c, s, model_digest(c)) << std::hexfloat << "\nsmooth " << c.smooth << "\nimaging_condition "
      << imaging::to_string(c.imaging_condition) << "\nimaging_interval " << plan.interval << "\nmute_velocity "
      << c.mute_velocity << "\ndensity_image " << c.density_image;
    common_ = f.str();
  }
  std::string of(const std::vector<int>& numbers) const {
    std::ostringstream f;
    f << common_;
    wave::Setup s = s_;
    for (int number : numbers) {
      const auto shot = std::find_if(shots_.begin(), shots_.end(), [&](const auto& e) { return e.number == number; });
      f << "\nshot_" << number;
      if (shot == shots_.end()) {
        f << " (not in this run's shots)";
        continue;
      }
      place_shot(shot_config(c_, *shot), s);
      const std::string gather = gather_path(c_, number);
      std::error_code error;
      f << std::hexfloat << " sources";
      for (const auto& p : s.sources) f << " " << p.x << "," << p.y << "," << p.z;
      f << " receivers";
      for (const auto& p : s.receivers) f << " " << p.x << "," << p.y << "," << p.z;
      f << " wavelet " << wave::to_string(s.wavelet) << " f0 " << s.f0 << " data_crc32 "
        << (fs::is_regular_file(gather, error) ? std::to_string(io::file_crc32(gather)) : std::string("none"));
    }
    return f.str();
  }
  static std::string gather_path(const io::RunConfig& c, int number) {
    return c.survey.empty() ? c.migrate : (fs::path(c.migrate) / (io::shot_stem(number) + ".sgy")).string();
  }

 private:
  const io::RunConfig& c_;
  const wave::Setup& s_;
  const std::vector<io::SurveyShot>& shots_;
  std::string common_;
};

// The shots the stacks in OUTPUT hold, refusing a shot held twice and a stack whose fingerprint is not this run's
// (each stack read whole against its CRC-32); `generation` gets the next stacks' number.
std::set<int> stacked_shots(const std::string& output, const StackPrint& print, int& generation) {
  std::set<int> done;
  generation = 1;
  for (const std::string& path : io::stack_files(output)) {
    const io::Stack s = io::read_stack(path, false);
    const std::string mine = print.of(s.shots);
    require(s.fingerprint == mine, "--restart: stack ", path, " was imaged with other inputs than this migration's; ",
            "they differ in ", io::fingerprint_difference(s.fingerprint, mine, "the stack"),
            ". A restart continues the same migration: migrate anew with another --output (or --overwrite)");
    for (int shot : s.shots) require(done.insert(shot).second, "shot ", shot, " is in two stacks (", path, ")");
    generation = std::max(generation, stack_generation(path) + 1);
  }
  return done;
}

// The first value of `values` that is not finite, as its index (values.size() where all are).
std::size_t first_non_finite(const std::vector<float>& values) {
  return std::size_t(std::find_if(values.begin(), values.end(), [](float v) { return !std::isfinite(v); }) -
                     values.begin());
}

// Stops the run (exit 1) where an image or illumination holds a NaN or an infinity: data whose amplitudes overflow
// float32 on their way through the receiver wavefield, which would otherwise leave a NaN image and exit 0.
// `n`: the points the values hold along x and y.
void require_finite(const std::vector<float>& values, std::array<int, 3> n, const std::string& what) {
  const std::size_t at = first_non_finite(values);
  if (at == values.size()) return;
  const std::size_t nx = std::size_t(n[0]), plane = nx * std::size_t(n[1]);
  std::ostringstream message;
  message << what << " became non-finite (" << values[at] << " at point " << at % nx << ", "
          << at / nx % std::size_t(n[1]) << ", " << at / plane
          << "): the observed data's amplitudes overflow float32 on their way through the receiver wavefield; scale "
             "the data down. Nothing of it was written";
  throw std::runtime_error(message.str());
}

std::string stack_name(int generation, int rank) {
  std::ostringstream name;
  name << "stack-g" << std::setw(5) << std::setfill('0') << generation << "-r" << std::setw(5) << rank << ".bin";
  return name.str();
}

// This rank's stack: its migration, the shots migrated since it was last written, and their records.
class RankStack {
 public:
  RankStack(const io::RunConfig& c, const wave::Setup& s, const imaging::MigrationPlan& plan, const StackPrint& print,
            int generation, int rank)
      : c_(c),
        s_(s),
        print_(print),
        path_((fs::path(c.output) / stack_name(generation, rank)).string()),
        migration_(s, {plan.interval, plan.segment, plan.condition, plan.density_image}, std::size_t(-1)) {}

  imaging::Migration<Exec>& migration() { return migration_; }
  // The volumes after the last write (`write_if_due(..., true)`), moved out.
  io::Stack take_sums() {
    if (last_.image.empty()) return sums();
    return std::move(last_);
  }
  void add(const io::ShotRecord& record) {
    shots_.push_back(record.number);
    unwritten_.push_back(record);
  }
  // Written when `every` seconds have passed since the last time (always with `every` 0 or `last`).
  void write_if_due(double every, bool last) {
    if (unwritten_.empty() || (!last && since(written_) < every)) return;
    io::Stack stack = sums();
    require_finite(stack.image, {s_.nx, s_.ny, s_.nz}, "the image of shots " + to_text(shots_));
    require_finite(stack.illumination, {s_.nx, s_.ny, s_.nz}, "the illumination of shots " + to_text(shots_));
    require_finite(stack.density_image, {s_.nx, s_.ny, s_.nz}, "the density's image of shots " + to_text(shots_));
    io::write_stack(path_, stack);
    if (last) last_ = std::move(stack);  // the run's sums, kept for the ranks' reduction
    written_ = Clock::now();
    for (io::ShotRecord& r : unwritten_) {
      r.status = "done";
      r.files = {io::record_file(c_.output, fs::path(path_).filename().string())};
      io::write_shot_record(c_.output, r);
    }
    unwritten_.clear();
  }

 private:
  io::Stack sums() const {
    return {s_.nx,
            s_.ny,
            s_.nz,
            shots_,
            print_.of(shots_),
            migration_.image(),
            migration_.illumination(),
            c_.density_image ? migration_.density_image() : std::vector<float>{}};
  }

  const io::RunConfig& c_;
  const wave::Setup& s_;
  const StackPrint& print_;
  std::string path_;
  imaging::Migration<Exec> migration_;
  std::vector<int> shots_;
  std::vector<io::ShotRecord> unwritten_;
  Clock::time_point written_ = Clock::now();
  io::Stack last_;
};

// One shot: its gather read and checked (unless `checked` holds its traces, read before the set-up), muted,
// differentiated and reversed, migrated into the rank's stack. A failure is recorded (the stack holds nothing of
// it: everything is checked before its first step).
io::ShotRecord migrate_shot(const io::RunConfig& c, const io::SurveyShot& shot, wave::Setup& s, RankStack& stack,
                            int rank, std::optional<std::vector<float>>& checked) {
  io::ShotRecord record;
  record.number = shot.number;
  record.kind = "migration";
  record.status = "running";
  record.group = rank, record.first_rank = rank, record.ranks = 1;
  record.host = host_name();
  record.started = date_now();
  io::write_shot_record(c.output, record);
  const auto start = Clock::now();
  try {
    place_shot(shot_config(c, shot), s);
    const std::string path = StackPrint::gather_path(c, shot.number);
    std::vector<float> traces = checked ? std::move(*checked) : observed_traces(path, s, "migration");
    checked.reset();
    if (c.mute_velocity > 0)
      imaging::mute_direct_wave(traces, s.receivers, s.sources[0], s.steps, s.dt, c.mute_velocity, s.f0);
    const bool adjoint = stack.migration().plan().condition == imaging::ImagingCondition::adjoint;
    const imaging::MigrationTiming t =
        stack.migration().migrate(s.sources, s.wavelet, s.f0, s.receivers,
                                  adjoint ? imaging::adjoint_sources(traces, s.receivers.size(), s.steps, s.h)
                                          : imaging::backward_sources(traces, s.receivers.size(), s.steps, s.dt));
    record.forward_seconds = t.forward_seconds;
    record.backward_seconds = t.backward_seconds;
    record.loop_seconds = t.forward_seconds + t.backward_seconds;
    record.steps = t.steps;
    const double point_steps = double(s.nx) * s.ny * s.nz * t.steps;
    record.gpts_per_s = point_steps / record.loop_seconds * 1e-9;
    record.gb_per_s = t.bytes / record.loop_seconds * 1e-9;
    record.bytes_per_point = t.bytes / point_steps;
    constexpr bool host_fields = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Exec::memory_space>::accessible;
    const wave::CopyYardstick yardstick = wave::copy_yardstick(s, wave::whole_grid(s), host_fields);
    const io::CopyShare share = io::share_of_copy(record.gb_per_s, stack.migration().copy_gb_per_s(),
                                                  double(yardstick.bytes), double(yardstick.cache_bytes), !host_fields);
    record.percent_of_copy = share.percent;
    record.copy_caveat = share.caveat;
    record.status = "imaged";
  } catch (const std::exception& e) {
    record.status = "failed";
    record.error = e.what();
  }
  record.seconds = since(start);
  record.ended = date_now();
  std::ostringstream line;
  line << "  shot " << record.number << " " << record.status << " in " << std::fixed << std::setprecision(2)
       << record.seconds << " s on rank " << rank;
  if (record.status == "imaged")
    line << " (forward " << record.forward_seconds << " s, backward " << record.backward_seconds << " s, "
         << std::setprecision(1) << record.bytes_per_point << " B a point and step, " << std::setprecision(2)
         << record.gb_per_s << " GB/s, " << record.percent_of_copy << "% of copy"
         << (record.copy_caveat.empty() ? "" : ", not meaningful: " + record.copy_caveat) << ")";
  else
    line << ": " << record.error;
  std::cout << line.str() << "\n" << std::flush;
  if (record.status == "failed") {
    io::write_shot_record(c.output, record);
    std::cerr << "seis-wave: shot " << record.number << " failed: " << record.error << "\n";
  } else {
    stack.add(record);
  }
  return record;
}

// Where the image's shallow mute ends (m) and its taper: --image-top, or by default the deepest source or receiver
// of any shot plus a wavelength (the slowest velocity over the lowest f0), tapered over half of one.
std::pair<double, double> image_top(const io::RunConfig& c, const std::vector<io::SurveyShot>& shots,
                                    const wave::Setup& setup) {
  wave::Setup s = setup;
  double deepest = 0, lowest_f0 = 0;
  for (const io::SurveyShot& shot : shots) {
    place_shot(shot_config(c, shot), s);
    for (const auto* points : {&s.sources, &s.receivers})
      for (const wave::Point& p : *points) deepest = std::max(deepest, p.z);
    lowest_f0 = lowest_f0 == 0 ? s.f0 : std::min(lowest_f0, s.f0);
  }
  const double wavelength = *std::min_element(setup.velocity.begin(), setup.velocity.end()) / lowest_f0;
  if (c.image_top >= 0) return {c.image_top, c.image_top > 0 ? 0.5 * wavelength : 0.0};
  return {deepest + wavelength, 0.5 * wavelength};
}

// The stacks in OUTPUT summed, cropped to the model, normalised, filtered, muted above `top`, and written: the
// image and illumination as SEG-Y (on two threads: each is mostly waiting for its writes) and pictures, and the
// density's image as summed (a gradient: neither normalised, filtered nor muted). Prints each stage's time. `sums`
// holds this run's shots summed over the ranks; the stacks of earlier runs (a restart's generations before
// `generation`) are read and added.
std::vector<std::string> write_image(const io::RunConfig& c, const wave::Setup& s, std::pair<double, double> top,
                                     double section_y, io::Stack sums, int generation) {
  auto t = Clock::now();
  int earlier = 0;
  std::vector<float>&image = sums.image, &illumination = sums.illumination, &density = sums.density_image;
  for (const std::string& path : io::stack_files(c.output)) {
    if (stack_generation(path) >= generation) continue;
    const io::Stack stack = io::read_stack(path);
    require(stack.nx == s.nx && stack.ny == s.ny && stack.nz == s.nz && stack.density_image.size() == density.size(),
            "stack ", path, " is of a ", stack.nx, "x", stack.ny, "x", stack.nz, " grid with ",
            stack.density_image.empty() ? "no" : "a", " density image, this migration's ", s.nx, "x", s.ny, "x", s.nz,
            " with ", density.empty() ? "no" : "one");
    for (std::size_t p = 0; p < image.size(); ++p) image[p] += stack.image[p], illumination[p] += stack.illumination[p];
    for (std::size_t p = 0; p < density.size(); ++p) density[p] += stack.density_image[p];
    ++earlier;
  }
  std::cout << std::fixed << std::setprecision(2) << "  " << earlier << " stack(s) of earlier runs read and added in "
            << since(t) << " s";
  t = Clock::now();
  // The model's points alone from here: the layer images nothing of the model.
  const std::array<int, 3> n = wave::model_points(s);
  image = wave::crop(s, image);
  illumination = wave::crop(s, illumination);
  require_finite(image, n, "the stacked image");
  require_finite(illumination, n, "the stacked illumination");
  std::vector<float> out = imaging::normalise_by_illumination(image, illumination);
  if (c.image_filter == imaging::ImageFilter::laplacian) out = imaging::laplacian_filter(out, n[0], n[1], n[2]);
  imaging::mute_shallow(out, n[0], n[1], n[2], s.h, top.first, top.second);
  require_finite(out, n, "the normalised image");
  std::cout << ", normalised and filtered in " << since(t) << " s";
  t = Clock::now();
  const fs::path dir(c.output);
  auto illumination_written = std::async(std::launch::async, [&] {
    io::write_volume_segy((dir / "illumination.sgy").string(), illumination, n[0], n[1], n[2], s.h,
                          "source illumination");
  });
  io::write_volume_segy((dir / "image.sgy").string(), out, n[0], n[1], n[2], s.h, "migrated image");
  illumination_written.get();
  // The pictures cut through --section-y (default: the first shot's source line) and --section-depth (default: the
  // depth of the image's largest |value|).
  const int j = std::clamp(int(std::lround((c.section_y >= 0 ? c.section_y : section_y) / s.h)), 0, n[1] - 1);
  const auto largest =
      std::max_element(out.begin(), out.end(), [](float a, float b) { return std::abs(a) < std::abs(b); });
  const int k = c.section_depth >= 0
                    ? std::clamp(int(std::lround(c.section_depth / s.h)), 0, n[2] - 1)
                    : int(std::size_t(largest - out.begin()) / (std::size_t(n[0]) * std::size_t(n[1])));
  std::vector<std::string> files{(dir / "image.sgy").string(), (dir / "illumination.sgy").string()};
  for (const auto& p : io::write_volume_sections((dir / "image").string(), out, n[0], n[1], n[2], s.h, j, k,
                                                 "migrated image", "image (normalised)"))
    files.push_back(p);
  for (const auto& p :
       io::write_volume_sections((dir / "illumination").string(), illumination, n[0], n[1], n[2], s.h, j, k,
                                 "source illumination", "sum of u^2", io::ColourScale::sequential))
    files.push_back(p);
  std::ostringstream model;
  model << "migration model (" << c.model;
  if (c.smooth > 0) model << ", smoothed over " << c.smooth << " m";
  model << ")";
  for (const auto& p : io::write_volume_sections((dir / "model").string(), wave::crop(s, s.velocity), n[0], n[1], n[2],
                                                 s.h, j, k, model.str(), "velocity (m/s)", io::ColourScale::sequential))
    files.push_back(p);
  if (!density.empty()) {
    density = wave::crop(s, density);
    require_finite(density, n, "the stacked density image");
    io::write_volume_segy((dir / "density-image.sgy").string(), density, n[0], n[1], n[2], s.h,
                          "the exact adjoint's image in the density");
    files.push_back((dir / "density-image.sgy").string());
    for (const auto& p : io::write_volume_sections((dir / "density-image").string(), density, n[0], n[1], n[2], s.h, j,
                                                   k, "the exact adjoint's image in the density", "image (as summed)"))
      files.push_back(p);
  }
  std::cout << ", written in " << since(t) << " s\n" << std::defaultfloat << std::flush;
  return files;
}

}  // namespace

int run_migration(const mpi::World& world, const io::RunConfig& config, const StartUp& start_up) {
  const bool root = world.rank() == 0;
  require(config.ranks_per_shot == 1 && !config.decomposition,
          "--migrate runs each shot on one rank (shots over ranks); --ranks-per-shot ", config.ranks_per_shot,
          " and --decomposition are for modelling");
  require(config.snapshot_every == 0 && config.checkpoint_every == 0 && !config.tune,
          "--migrate keeps its own checkpoints and partial stacks: --snapshot-every, --checkpoint-every and --tune "
          "are for modelling runs");
  const auto started = Clock::now();
  const std::string started_date = date_now();
  const double device_ready = world.max(start_up.device);
  const std::vector<io::SurveyShot> shots = run_shots(config);

  // The migration model: read once per node, smoothed there, each rank's whole (a shot runs on one rank).
  const std::unique_ptr<mpi::World> self = world.split(world.rank());
  const MemoryAvailable memory = memory_available(world);
  wave::Subdomain part;
  std::size_t model_bytes = 0;
  const auto model = [&](const wave::Subdomain& p, std::size_t& bytes) {
    return world.read_once_per_node([&] {
      return imaging::smoothed_model(load_model(config.model, p, bytes), p.size[0], p.size[1], p.size[2],
                                     config.spacing, config.smooth);
    });
  };
  wave::Setup setup = make_setup(
      config, [](const wave::Setup& s) { return wave::whole_grid(s); }, model, *self, memory.fields, memory.host,
      memory.host_fields, part, model_bytes);
  const imaging::ImagingCondition condition = config.imaging_condition;
  // The exact adjoint injects at receivers inside the PML's inner region only.
  const auto imaging_check = [&](const wave::Setup& s) {
    if (condition == imaging::ImagingCondition::adjoint) imaging::require_inner_receivers(s, s.receivers);
  };
  if (config.survey.empty()) {
    place_shot(config, setup);
    wave::validate_shot(setup);
    imaging_check(setup);
  } else {
    validate_shots(config, shots, setup, imaging_check);
  }
  require(!config.density_image || wave::variable_density(setup),
          "--density-image images the density where it varies: give one with --density (a model file or gardner)");
  const imaging::MigrationPlan plan =
      imaging::plan_migration(setup, {config.imaging_interval, 0, condition, config.density_image}, memory.fields);
  // A single shot's gather is checked before anything is written or allocated, and kept for its migration.
  std::optional<std::vector<float>> checked;
  if (config.survey.empty()) checked = observed_traces(config.migrate, setup, "migration");

  std::string pending_text, generation_text;
  const std::size_t points = std::size_t(setup.nx) * setup.ny * setup.nz;
  if (!config.survey.empty()) {
    std::error_code error;
    require(!fs::equivalent(config.output, config.migrate, error), "--output ", config.output,
            " is the observed data's directory (--migrate ", config.migrate,
            "): the migration's records would replace the survey's");
  }
  const StackPrint print(config, setup, plan, shots);
  if (root) {
    // Writable, with room for a stack per rank and the image, its illumination (and the density's image) and their
    // pictures (a restart's stacks there already count as written).
    const std::size_t volumes = config.density_image ? 3 : 2;
    io::prepare_output_directory(config.output, {config.restart, false,
                                                 volumes * (std::size_t(world.size()) + 1) * points * sizeof(float) +
                                                     (3 * volumes) * io::max_picture_bytes + (std::size_t(1) << 20),
                                                 io::RunKind::migration});
    // Every check passed: an earlier migration's stacks go now (its image stays until this one's replaces it).
    if (config.overwrite)
      for (const std::string& path : io::stack_files(config.output)) fs::remove(path);
    int generation = 1;
    const std::set<int> done = stacked_shots(config.output, print, generation);
    require(config.restart || generation == 1, "--output ", config.output,
            " holds an earlier migration's stacks: --restart resumes it; a new one needs another --output");
    std::vector<int> pending;
    for (std::size_t n = 0; n < shots.size(); ++n)
      if (!done.count(shots[n].number)) pending.push_back(int(n));
    pending_text = to_text(pending);
    generation_text = std::to_string(generation);
    std::cout << "seis-wave migration: " << shots.size() << " shot(s) (" << pending.size() << " to image, "
              << shots.size() - pending.size() << " stacked already) of " << grid_text(setup) << ", " << setup.steps
              << " steps each, on " << world.size() << " rank(s), " << compat::device_name<Exec>() << " ("
              << Exec::name() << "); " << imaging::to_string(condition) << " imaging every " << plan.interval
              << " steps, a state kept every " << plan.segment << " (" << plan.states << " states, " << plan.snapshots
              << " source wavefields: " << std::setprecision(4) << plan.total_bytes / 1073741824.0
              << " GiB per rank); the device ready by " << std::setprecision(3) << device_ready << " s\n"
              << std::flush;
  }
  world.broadcast(pending_text);
  world.broadcast(generation_text);
  const std::vector<int> pending = from_text(pending_text);

  int failed = 0;
  double shots_seconds = 0, copy_gb_per_s = 0;
  io::Stack sums;  // this run's shots, summed on rank 0
  const auto shots_start = Clock::now();
  {
    RankStack stack(config, setup, plan, print, std::stoi(generation_text), world.rank());
    copy_gb_per_s = stack.migration().copy_gb_per_s();
    mpi::SharedCounter counter(world);
    deal_shots(counter, nullptr, pending.size(), [&](std::size_t n) {
      failed +=
          migrate_shot(config, shots[std::size_t(pending[n])], setup, stack, world.rank(), checked).status == "failed";
      stack.write_if_due(config.stack_every, false);
    });
    const auto shots_end = Clock::now();
    shots_seconds = world.max(std::chrono::duration<double>(shots_end - shots_start).count());
    stack.write_if_due(config.stack_every, true);
    const double stack_seconds = world.max(since(shots_end));
    // The ranks' stacks summed in memory (their files stay for a restart; reading them back took 1.6-4.6 s of a
    // 512^3 survey's finish on four H100s, perf/NOTES.md 114).
    const auto summing = Clock::now();
    sums = stack.take_sums();
    for (std::vector<float>* v : {&sums.image, &sums.illumination, &sums.density_image})
      if (!v->empty()) world.reduce_sum(*v);
    if (root)
      std::cout << "finishing: the ranks' last stacks written in " << std::fixed << std::setprecision(2)
                << stack_seconds << " s, summed over the ranks in " << since(summing) << " s;" << std::defaultfloat
                << std::flush;
  }
  world.await_all();
  failed = world.max(failed);
  const double model_bytes_read = world.sum(double(model_bytes));
  if (root) {
    const auto top = image_top(config, shots, setup);
    wave::Setup first = setup;
    place_shot(shot_config(config, shots.front()), first);
    const std::vector<std::string> files =
        write_image(config, setup, top, first.sources.front().y, std::move(sums), std::stoi(generation_text));
    io::SurveySummary summary{config.survey,
                              started_date,
                              date_now(),
                              world.size(),
                              1,
                              int(shots.size() - pending.size()),
                              since(started),
                              model_bytes_read,
                              {},
                              imaging::to_string(config.imaging_condition)};
    summary.migration = {{"imaging_interval", plan.interval},
                         {"segment", plan.segment},
                         {"kept_states", plan.states},
                         {"source_wavefields", plan.snapshots},
                         {"device_bytes", double(plan.total_bytes)},
                         {"smooth_m", config.smooth},
                         {"mute_velocity", config.mute_velocity},
                         {"image_top_m", top.first},
                         {"shots_seconds", shots_seconds},
                         {"copy_gb_per_s", copy_gb_per_s},
                         {"finish_seconds", since(shots_start) - shots_seconds}};
    std::vector<io::ShotRecord> records;
    for (const io::SurveyShot& shot : shots) {
      auto r = io::read_shot_record(config.output, shot.number);
      io::ShotRecord record = r ? *r : io::ShotRecord{};
      record.number = shot.number;
      records.push_back(record);
    }
    const std::string manifest = (fs::path(config.output) / "migration.json").string();
    io::write_manifest(manifest, summary, records);
    int imaged = 0;
    for (const auto& r : records) imaged += r.status == "done";
    std::cout << std::setprecision(4) << "migration done in " << summary.wall_seconds << " s: " << imaged << " of "
              << shots.size() << " shots in the image, " << failed << " failed\nwrote: " << manifest;
    for (const auto& f : files) std::cout << ", " << f;
    std::cout << "\n";
  }
  world.await_all();
  return failed > 0 ? 1 : 0;
}

}  // namespace seis::runs

#include "seis/runs/single_run.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "seis/core/compat.hpp"
#include "seis/core/error.hpp"
#include "seis/core/layout.hpp"
#include "seis/core/tuning.hpp"
#include "seis/io/copy_share.hpp"
#include "seis/io/output_directory.hpp"
#include "seis/io/outputs.hpp"
#include "seis/io/picture.hpp"
#include "seis/io/run_report.hpp"
#include "seis/io/tuning_cache.hpp"
#include "seis/io/volume.hpp"
#include "seis/kernels/team_launch.hpp"
#include "seis/runs/run_setup.hpp"
#include "seis/runs/shot_run.hpp"
#include "seis/wave/padding.hpp"
#include "seis/wave/simulation.hpp"
#include "seis_build_info.hpp"

namespace seis::runs {

namespace {

namespace fs = std::filesystem;

std::string format_seconds(double s) {
  std::ostringstream out;
  if (s >= 3600)
    out << int(s / 3600) << "h" << std::setw(2) << std::setfill('0') << int(s / 60) % 60 << "m";
  else if (s >= 60)
    out << int(s / 60) << "m" << std::setw(2) << std::setfill('0') << int(s) % 60 << "s";
  else
    out << std::fixed << std::setprecision(1) << s << "s";
  return out.str();
}

// Vertical (x-z at --section-y, by default the source's y) and horizontal (x-y at --section-depth, by default its
// depth) slices of the wavefield on the model's points, from every rank's part of them (`part`, zeros elsewhere,
// added up on rank 0), written by rank 0.
void write_slices(const std::string& stem, const std::vector<float>& u, double time, const io::RunConfig& c,
                  const wave::Setup& s, const wave::Subdomain& part, const mpi::World& world,
                  std::vector<std::string>& files) {
  const std::array<int, 3> m = wave::model_points(s);
  const double y = c.section_y >= 0 ? c.section_y : s.sources[0].y,
               z = c.section_depth >= 0 ? c.section_depth : s.sources[0].z;
  const int js = std::clamp(int(std::lround(y / s.h)), 0, m[1] - 1);
  const int ks = std::clamp(int(std::lround(z / s.h)), 0, m[2] - 1);
  std::vector<float> xz(static_cast<std::size_t>(m[0]) * m[2], 0.0f), xy(static_cast<std::size_t>(m[0]) * m[1], 0.0f);
  // This part's rows of each slice (if it holds the slice's plane), the rest zeros.
  const int* o = part.offset;
  const int* n = part.size;
  auto row = [&](int j, int k) {
    return u.begin() + std::ptrdiff_t((std::size_t(k - o[2]) * n[1] + (j - o[1])) * n[0]);
  };
  const auto at = [&](std::vector<float>& plane, int row_index) {
    return plane.begin() + std::ptrdiff_t(row_index) * m[0] + o[0];
  };
  if (js >= o[1] && js < o[1] + n[1])
    for (int k = o[2]; k < o[2] + n[2]; ++k) std::copy_n(row(js, k), n[0], at(xz, k));
  if (ks >= o[2] && ks < o[2] + n[2])
    for (int j = o[1]; j < o[1] + n[1]; ++j) std::copy_n(row(j, ks), n[0], at(xy, j));
  world.reduce_sum(xz);
  world.reduce_sum(xy);
  if (world.rank() != 0) return;
  std::ostringstream what;
  what << "u at t = " << std::setprecision(4) << time << " s";
  for (const std::string& path :
       io::write_sections(stem, xz, xy, m[0], m[1], m[2], s.h, js, ks, what.str(), "u (source units / m)"))
    files.push_back(path);
}

// What a run writes beside its checkpoints: the seismogram, its picture and run.json; the final wavefield with its
// JSON and two slices; each snapshot likewise. Pictures at their bound (io::max_picture_bytes), JSON at 1 MiB.
std::uintmax_t output_bytes(const io::RunConfig& c, const wave::Setup& s, const Seismogram& seismogram) {
  const std::array<int, 3> m = wave::model_points(s);
  const double points = double(m[0]) * m[1] * m[2], picture = double(io::max_picture_bytes), json = 1 << 20;
  const double wavefield = 4 * points + json + 2 * picture;
  double bytes = double(seismogram.bytes) + picture + json;
  if (!c.benchmark) bytes += wavefield;
  if (c.snapshot_every > 0) bytes += wavefield * ((s.steps - 1) / c.snapshot_every);
  return static_cast<std::uintmax_t>(bytes);
}

// A checkpoint's bytes (io::write_checkpoint): u and u_prev in the padded layout, phi as the PML stores it, the
// receivers' corner traces, the fingerprint and a header.
std::uintmax_t checkpoint_bytes(const wave::Simulation<Exec>& sim, const std::string& fingerprint) {
  const std::size_t traces = sim.setup().receivers.size() * 8 * std::size_t(sim.setup().steps);
  return 4 * (2 * sim.layout().size + sim.pml().stored() + traces) + fingerprint.size() + 4096;
}

// One file per rank when there are several: NAME.rankNNNN.EXT.
std::string rank_file(const fs::path& dir, const std::string& name, const std::string& ext, const mpi::World& world) {
  std::ostringstream f;
  f << name;
  if (world.size() > 1) f << ".rank" << std::setw(4) << std::setfill('0') << world.rank();
  return (dir / (f.str() + ext)).string();
}

// --tune: the step timed over tiles and nw (seis::tuning's search, a short simulation per candidate), the winner
// cached; without --tune or --tile/--nw, an earlier winner of the same key is used. Returns "tuned", "cached" or "".
std::string tune_step(const io::RunConfig& config, wave::Setup& setup, const wave::Subdomain& part,
                      const mpi::World& world) {
  if (config.tile || config.window > 0 || (!config.tune && !config.use_tuned)) return "";
  const std::string cache = config.tuning_cache.empty() ? io::default_tuning_cache_path() : config.tuning_cache;
  const io::TuningKey key{compat::device_name<Exec>(),
                          Exec::name(),
                          std::string("seis-wave:") + wave::to_string(setup.shape) + ":" +
                              wave::to_string(setup.strategy) + ":" + wave::to_string(setup.boundary),
                          build_info::kernel_code_version,
                          setup.radius,
                          tuning::grid_class(std::size_t(setup.nx) * setup.ny * setup.nz)};
  if (!config.tune) {
    const auto entry = io::find_tuned(cache, key);
    if (!entry) return "";
    setup.launch = entry->options;
    return "cached";
  }
  require(world.size() == 1, "--tune runs on one process, not ", world.size(),
          " ranks: tune on one, then every rank uses the cached winner");
  const auto measure = [&](const LaunchOptions& options) {
    wave::Setup trial_setup = setup;
    trial_setup.launch = options;
    trial_setup.steps = 8;
    wave::Simulation<Exec> trial(trial_setup, part, nullptr);
    trial.advance(2);  // first touch, launch configuration
    const auto start = std::chrono::steady_clock::now();
    trial.advance(6);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / 6;
  };
  const auto space = tuning::default_space({}, is_gpu_space<Exec>(), false, setup.radius);
  const auto found = tuning::search(space, setup.launch, measure, 2);
  std::size_t refused = 0;
  for (const auto& t : found.trials) refused += !t.refused.empty();
  std::cout << std::setprecision(4) << "tuned the step: " << found.start_seconds * 1e3 << " ms at "
            << tuning::describe(found.start) << " -> " << found.best_seconds * 1e3 << " ms at "
            << tuning::describe(found.best) << " (" << found.trials.size() << " candidates, " << refused
            << " refused; cached in " << cache << ")\n";
  io::store_tuned(cache, key, {found.best, found.best_seconds, found.start_seconds, date_now()});
  setup.launch = found.best;
  return "tuned";
}

}  // namespace

int run_single(const mpi::World& world, const io::RunConfig& config) {
  require(config.ranks_per_shot == 1, "--ranks-per-shot ", config.ranks_per_shot,
          " needs --survey (a single run's ranks all share its one shot)");
  const mpi::HaloOptions halo_options{config.mpi_timeout, mpi::parse_transport(config.halo_transport),
                                      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, Exec::memory_space>::accessible};
  const mpi::Cartesian grid(world, decomposition_of(config, world.size()));
  wave::Subdomain part;
  // The ranks of a node share its host memory (and a host backend's fields live there).
  const bool host_fields = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Exec::memory_space>::accessible;
  const std::size_t host_available = compat::host_available_bytes() / std::size_t(world.local_size());
  const std::size_t available = host_fields ? host_available : compat::available_memory_bytes();
  std::size_t model_bytes_read = 0;
  wave::Setup setup = make_setup(
      config, [&](const wave::Setup& s) { return wave::split_grid(s, grid.decomposition(), grid.coord()); },
      [&](const wave::Subdomain& p, std::size_t& bytes) { return load_model(config.model, p, bytes); }, world,
      available, host_available, host_fields, part, model_bytes_read);
  wave::validate_shot(setup);
  const Seismogram seismogram = seismogram_of(config.trace_dt, setup);
  const std::string dispersion = dispersion_warning(setup, setup.f0, world);
  if (!dispersion.empty() && world.rank() == 0) std::cerr << "seis-wave: warning: " << dispersion << "\n";
  const std::string tuning_state = tune_step(config, setup, part, world);
  const bool root = world.rank() == 0;
  const fs::path dir(config.output);
  // Before the model goes to the device and the time loop starts: a directory that cannot take the outputs. With
  // --overwrite the earlier outputs stay until this run has written its own.
  io::EarlierOutputs earlier;
  if (root)
    earlier = io::prepare_output_directory(
        config.output,
        {config.restart, config.overwrite, output_bytes(config, setup, seismogram), io::RunKind::single});
  world.barrier();
  const std::string checkpoint = rank_file(dir, "checkpoint", ".bin", world);
  const std::string print = fingerprint(config, setup, grid);

  const auto halo = grid.halo(halo_options);
  wave::Simulation<Exec> sim(setup, part, halo.get());
  if (config.checkpoint_every > 0) {
    // Three generations exist while one is written (the newest, the previous and the one being written), on every
    // rank; a restart replaces what its run wrote there already.
    const double checkpoints = world.sum(3.0 * double(checkpoint_bytes(sim, print)));
    if (root) {
      const std::uintmax_t needed = output_bytes(config, setup, seismogram) + std::uintmax_t(checkpoints),
                           there = config.restart ? io::existing_output_bytes(config.output, io::RunKind::single) : 0;
      io::require_free_space(config.output, needed > there ? needed - there : 0, "the run with its checkpoints");
    }
    world.barrier();
  }
  if (root)
    std::cout << "seis-wave: " << grid_text(setup) << ", h = " << setup.h << " m, R = " << setup.radius
              << ", dt = " << setup.dt * 1e3 << " ms, " << setup.steps << " steps (" << setup.steps * setup.dt
              << " s), " << wave::to_string(setup.boundary) << " (ndamp " << sim.pml().thickness << "), strategy "
              << wave::to_string(setup.strategy) << ", kernel " << wave::to_string(setup.shape) << ", "
              << setup.sources.size() << " source(s), " << setup.receivers.size() << " receivers, on "
              << compat::device_name<Exec>() << " (" << Exec::name() << ")\n";
  const std::string halo_transport = halo ? halo->transport() : "none";
  if (halo && root)
    std::cout << "  " << world.size() << " MPI ranks, " << grid.decomposition().text()
              << " parts over x, y and z, halos by " << halo_transport << ", " << mpi::World::library() << "\n";
  const bool host_memory = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Exec::memory_space>::accessible;
  const wave::CopyYardstick yardstick = wave::copy_yardstick(setup, part, host_memory);
  const std::size_t copy_bytes = yardstick.bytes;
  const double copy = world.sum(sim.copy_bandwidth(10, copy_bytes));
  int restarted_at = 0;
  if (config.restart) {
    // Ranks stopped while writing a round of checkpoints hold different newest steps; each keeps its previous one
    // too, so they restart from the newest step they all hold.
    const std::string previous = io::previous_checkpoint(checkpoint);
    io::complete_checkpoint(checkpoint);
    // A damaged generation (a CRC that fails, a short file) is passed over for the other one.
    std::string damaged_newest, damaged_older;
    const int newest = io::checkpoint_step(checkpoint, print, &damaged_newest),
              older = io::checkpoint_step(previous, print, &damaged_older);
    for (const std::string* damage : {&damaged_newest, &damaged_older})
      if (!damage->empty()) std::cerr << "seis-wave: warning: " << *damage << ": not used\n";
    require(newest >= 0 || older >= 0, "--restart: no usable checkpoint at ", checkpoint, " or ", previous);
    const int common = world.min(std::max(newest, older));
    require(world.min(int(newest == common || older == common)) == 1,
            "--restart: the ranks' checkpoints have no step in common (the newest all reach is ", common,
            ", this rank's hold ", newest, " and ", older, "); restart from the beginning");
    const std::string& from = newest == common ? checkpoint : previous;
    sim.restore(io::read_checkpoint(from, print));
    restarted_at = sim.step();
    if (root) std::cout << "restarted from " << from << " at step " << restarted_at << "\n";
  } else if (config.checkpoint_every > 0) {
    // A new run's checkpoints start afresh: an older run's would otherwise be kept as the previous generation.
    fs::remove(checkpoint);
    fs::remove(io::previous_checkpoint(checkpoint));
  }

  std::vector<std::string> files;
  const double points = double(setup.nx) * setup.ny * setup.nz;
  auto last_print = std::chrono::steady_clock::now();
  // This rank's part of the wavefield on the model's points (the layer cropped off), with its JSON, and two slices.
  const auto write_wavefield = [&](const std::string& stem) {
    wave::Subdomain cropped;
    const std::vector<float> u = wave::crop(setup, part, sim.wavefield(), cropped);
    const std::string raw = rank_file(dir, stem, ".f32", world);
    io::write_snapshot(raw, u, cropped, setup.h, sim.step(), sim.step() * setup.dt);
    files.push_back(raw);
    files.push_back(raw + ".json");
    write_slices((dir / stem).string(), u, sim.step() * setup.dt, config, setup, cropped, world, files);
  };
  const auto at_stop = [&](int step) {
    if (config.snapshot_every > 0 && step % config.snapshot_every == 0) {
      std::ostringstream stem;
      stem << "snapshot-" << std::setw(6) << std::setfill('0') << step;
      write_wavefield(stem.str());
    }
    if (config.checkpoint_every > 0 && step % config.checkpoint_every == 0)
      io::write_checkpoint(checkpoint, sim.state(), print);
  };
  const auto progress = [&](int step, const StepTiming& timing) {
    const auto now = std::chrono::steady_clock::now();
    if (!root || config.quiet || std::chrono::duration<double>(now - last_print).count() < config.progress_seconds)
      return;
    last_print = now;
    const double per_step = timing.seconds / timing.steps;
    std::cout << "  step " << step << "/" << setup.steps << "  t = " << std::fixed << std::setprecision(3)
              << step * setup.dt << " s  " << std::setprecision(2) << points / per_step * 1e-9 << " GPts/s  ETA "
              << format_seconds(per_step * (setup.steps - step)) << std::defaultfloat
              << (halo ? "  halos by " + halo_transport : std::string()) << "\n"
              << std::flush;
  };
  const StepTiming timing = run_steps(sim, {config.snapshot_every, config.checkpoint_every}, at_stop, progress);
  const double kernel_seconds = timing.seconds;
  const int timed_steps = timing.steps;

  std::vector<float> traces = gathered_traces(sim, world);
  if (root) {
    const std::string segy = (dir / "seismogram.sgy").string(), gather_png = (dir / "shot-gather.png").string();
    write_gather(segy, gather_png, gather_of(setup, std::move(traces)), seismogram, config.shot, config.gather_gain);
    files.push_back(segy);
    files.push_back(gather_png);
  }
  if (!config.benchmark) write_wavefield("wavefield-final");

  // The slowest rank sets the pace; bytes and copy bandwidth add up over ranks.
  const double per_step = world.max(timed_steps > 0 ? kernel_seconds / timed_steps : 0);
  const double halo_per_step = world.max(timed_steps > 0 ? sim.halo_seconds() / timed_steps : 0);
  const double bytes = world.sum(sim.bytes_per_step());
  const double world_max_bytes = world.max(double(model_bytes_read)),
               world_total_bytes = world.sum(double(model_bytes_read));
  const double world_copy_bytes = world.sum(double(copy_bytes));
  if (!root) return 0;
  io::RunFacts facts = build_facts();
  facts.steps_done = timed_steps;
  facts.trace_dt = seismogram.trace_dt;
  facts.host_bytes_estimate = double(wave::host_bytes(setup, part, host_fields));
  facts.trace_samples = seismogram.samples;
  facts.restarted_at = restarted_at;
  facts.seconds_per_step = per_step;
  facts.gpts_per_s = per_step > 0 ? points / per_step * 1e-9 : 0;
  facts.bytes_per_point = bytes / points;
  facts.updates_per_point = sim.updates_per_point();
  if (setup.shape != wave::Shape::tile)
    facts.tile =
        std::to_string(sim.tile().tx) + "x" + std::to_string(sim.tile().ty) + "x" + std::to_string(sim.tile().nw);
  facts.step_gb_per_s = per_step > 0 ? bytes / per_step * 1e-9 : 0;
  facts.copy_gb_per_s = copy;
  facts.copy_bytes = world_copy_bytes;
  facts.last_level_cache_bytes = double(yardstick.cache_bytes);
  facts.copy_on_device = !host_memory;
  facts.ranks = world.size();
  facts.tuning = tuning_state;
  facts.launch = tuning::describe(setup.launch);
  facts.decomposition = grid.decomposition().text();
  facts.mpi_library = mpi::World::library();
  facts.halo_transport = halo_transport;
  facts.model_bytes_read_max = world_max_bytes;
  facts.model_bytes_read_total = world_total_bytes;
  facts.halo_seconds_per_step = halo_per_step;
  const std::string report = (dir / "run.json").string();
  files.push_back(report);
  facts.files = files;
  io::write_run_report(report, config, setup, facts);

  std::cout << std::setprecision(4) << "done: " << facts.seconds_per_step * 1e3 << " ms/step, " << facts.gpts_per_s
            << " GPts/s, " << facts.bytes_per_point << " B/point -> " << facts.step_gb_per_s << " GB/s = "
            << io::describe(io::share_of_copy(facts.step_gb_per_s, copy, world_copy_bytes, facts.last_level_cache_bytes,
                                              facts.copy_on_device),
                            copy);
  if (halo)
    std::cout << ", halos by " << halo_transport << ": " << halo_per_step * 1e3
              << " ms/step of host time on the slowest rank";
  io::remove_stale_outputs(earlier);
  std::cout << "\nwrote:\n";
  for (const auto& f : files) std::cout << "  " << f << "\n";
  return 0;
}

}  // namespace seis::runs

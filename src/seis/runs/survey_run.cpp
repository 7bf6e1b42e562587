#include "seis/runs/survey_run.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <future>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include "seis/core/compat.hpp"
#include "seis/core/error.hpp"
#include "seis/io/output_directory.hpp"
#include "seis/io/outputs.hpp"
#include "seis/io/picture.hpp"
#include "seis/io/survey.hpp"
#include "seis/runs/run_setup.hpp"
#include "seis/runs/shot_run.hpp"
#include "seis/runs/survey_shots.hpp"

namespace seis::runs {

namespace {

namespace fs = std::filesystem;

// One part of a model held whole (x fastest).
std::vector<float> part_of(std::vector<float>&& whole, const wave::Subdomain& p) {
  if (p.whole()) return std::move(whole);
  std::vector<float> part(p.points());
  for (int k = 0; k < p.size[2]; ++k)
    for (int j = 0; j < p.size[1]; ++j) {
      const std::size_t from =
          (std::size_t(k + p.offset[2]) * std::size_t(p.global[1]) + std::size_t(j + p.offset[1])) *
              std::size_t(p.global[0]) +
          std::size_t(p.offset[0]);
      std::copy_n(whole.begin() + std::ptrdiff_t(from), p.size[0],
                  part.begin() + std::ptrdiff_t((std::size_t(k) * p.size[1] + std::size_t(j)) * p.size[0]));
    }
  return part;
}

struct Team {
  const mpi::World& world;  // every rank of the survey
  const mpi::World& group;  // the ranks that run a shot together
  const mpi::Cartesian& grid;
  mpi::HaloOptions halo_options;
  int index = 0;
  Seismogram seismogram;     // every shot's interval and samples (one grid, one time step)
  std::string model_digest;  // the model's content for the shots' fingerprints (the group's leader only)
  // Built for the first shot and kept for the next (Simulation::new_shot): the model upload, the PML and the
  // halo connection are paid once per survey, not once per shot. Dropped after a failure.
  std::unique_ptr<wave::HaloExchange> halo;
  std::unique_ptr<wave::Simulation<Exec>> sim;
};

// The leader's end of a shot, on a thread of its own while the team runs the next: its gather written (SEG-Y and
// picture, resampled, encoded and synced: 0.2-0.3 s of host time per 512^3 shot, perf/NOTES.md 108), its final
// record, its line on standard output. One shot in flight: the next waits for it before it starts.
class ShotFinisher {
 public:
  ShotFinisher(const io::RunConfig& c, const Seismogram& seismogram)
      : c_(c), seismogram_(seismogram), manifest_((fs::path(c.output) / "survey.json").string()) {}
  ShotFinisher(const ShotFinisher&) = delete;
  ShotFinisher& operator=(const ShotFinisher&) = delete;
  ~ShotFinisher() {
    if (pending_.valid()) pending_.wait();
  }

  // `gather` is empty where the shot failed.
  void start(io::ShotRecord record, std::optional<Gather> gather, std::chrono::steady_clock::time_point started) {
    wait();
    pending_ = std::async(std::launch::async, [this, record, gather = std::move(gather), started]() mutable {
      finish(record, gather, started);
    });
  }
  // Rethrows only what is not the shot's (a record that cannot be written).
  void wait() {
    if (pending_.valid()) pending_.get();
  }

 private:
  void finish(io::ShotRecord& record, const std::optional<Gather>& gather,
              std::chrono::steady_clock::time_point started) const {
    if (gather) try {
        const std::string stem = io::shot_stem(record.number);
        write_gather((fs::path(c_.output) / (stem + ".sgy")).string(), (fs::path(c_.output) / (stem + ".png")).string(),
                     *gather, seismogram_, record.number, c_.gather_gain);
        record.files = {io::record_file(c_.output, stem + ".sgy"), io::record_file(c_.output, stem + ".png")};
      } catch (const std::exception& e) {
        record.status = "failed";
        record.error = e.what();
      }
    record.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    record.ended = date_now();
    io::write_shot_record(c_.output, record);
    io::update_manifest(manifest_, record);
    std::ostringstream line;
    line << "  shot " << record.number << " " << record.status << " in " << std::fixed << std::setprecision(2)
         << record.seconds << " s on group " << record.group << " (" << record.host << ", ranks " << record.first_rank
         << ".." << record.first_rank + record.ranks - 1 << ")";
    if (record.status == "done") line << ": " << record.gpts_per_s << " GPts/s";
    if (!record.error.empty()) line << ": " << record.error;
    std::cout << line.str() << "\n" << std::flush;
    if (record.status == "failed")
      std::cerr << "seis-wave: shot " << record.number << " failed: " << record.error << "\n";
  }

  const io::RunConfig& c_;
  const Seismogram seismogram_;
  const std::string manifest_;
  std::future<void> pending_;
};

// Runs one shot on the team (`setup` takes its sources, receivers and wavelet) and hands it to the leader's
// finisher (`finisher`, null on the other ranks). A failure (an exception on this rank, or on another of the team,
// which it learns from the team's vote) is recorded and the survey goes on.
void run_shot(const io::RunConfig& c, const io::SurveyShot& shot, Team& team, wave::Setup& setup,
              const wave::Subdomain& part, ShotFinisher* finisher) {
  io::ShotRecord record;
  record.number = shot.number;
  record.status = "running";
  record.group = team.index;
  record.first_rank = team.world.rank();
  record.ranks = team.group.size();
  record.host = host_name();
  record.started = date_now();
  const auto start = std::chrono::steady_clock::now();
  std::optional<Gather> gather;
  place_shot(shot_config(c, shot), setup);  // checked with every shot before the first ran
  if (finisher) {
    record.fingerprint = shot_fingerprint(c, setup, team.model_digest);
    io::write_shot_record(c.output, record);
    io::update_manifest((fs::path(c.output) / "survey.json").string(), record);
  }
  try {
    if (team.sim) {
      team.sim->new_shot(setup);
    } else {
      team.halo = team.grid.halo(team.halo_options);
      team.sim = std::make_unique<wave::Simulation<Exec>>(setup, part, team.halo.get());
      Kokkos::fence();
      record.setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    const StepTiming timing = run_steps(
        *team.sim, {}, [](int) {}, [](int, const StepTiming&) {});
    record.loop_seconds = timing.seconds;
    std::vector<float> traces = gathered_traces(*team.sim, team.group);
    record.steps = timing.steps;
    const double per_step = team.group.max(timing.steps > 0 ? timing.seconds / timing.steps : 0);
    record.gpts_per_s = per_step > 0 ? double(setup.nx) * setup.ny * setup.nz / per_step * 1e-9 : 0;
    if (finisher) gather = gather_of(setup, std::move(traces));
    record.status = "done";
  } catch (const std::exception& e) {
    record.status = "failed";
    record.error = e.what();
  }
  if (team.group.min(int(record.status == "done")) == 0) {
    if (record.status == "done") {
      record.status = "failed";
      record.error = "another rank of the group failed (its message is on its standard error)";
    }
    gather.reset();
    team.sim.reset();
    team.halo.reset();
  }
  if (finisher) finisher->start(record, std::move(gather), start);
}

}  // namespace

int run_survey(const mpi::World& world, const io::RunConfig& config, const StartUp& start_up) {
  const bool root = world.rank() == 0;
  require(config.snapshot_every == 0 && config.checkpoint_every == 0,
          "--survey keeps each shot's gather: --snapshot-every and --checkpoint-every are for single runs (a survey "
          "resumes by shots with --restart)");
  require(!config.tune, "--tune with --survey: tune a single run first; the shots then use the cached winner");
  require(config.ranks_per_shot >= 1 && world.size() % config.ranks_per_shot == 0, "--ranks-per-shot ",
          config.ranks_per_shot, " must be >= 1 and divide the ", world.size(), " MPI ranks");
  // The slowest rank's start-up by stage (MPI, then Kokkos and the device, then the run file), then its model and
  // checks.
  const double mpi_ready = world.max(start_up.mpi), device_ready = world.max(start_up.device);
  const double runtime_ready = world.max(seconds_since_start());
  const std::vector<io::SurveyShot> shots = io::read_survey(config.survey);
  const auto started = std::chrono::steady_clock::now();
  const std::string started_date = date_now();

  const int groups = world.size() / config.ranks_per_shot, index = world.rank() / config.ranks_per_shot;
  const std::unique_ptr<mpi::World> group = world.split(index);
  const mpi::Cartesian grid(*group, decomposition_of(config, group->size()));
  const MemoryAvailable memory = memory_available(world);
  // A model file is read once per node (a built-in model is made on each rank, for its part); each rank keeps its
  // part for every shot it runs.
  wave::Subdomain part;
  std::size_t model_bytes = 0;
  double model_seconds = 0;  // this rank's model made or read, for the opening line's stages
  const auto model = [&](const wave::Subdomain& p, std::size_t& bytes) {
    const double begin = seconds_since_start();
    const auto whole = [&] {
      return load_model(config.model, wave::whole_grid(p.global[0], p.global[1], p.global[2]), bytes);
    };
    std::vector<float> values =
        model_is_file(config.model) ? part_of(world.read_once_per_node(whole), p) : load_model(config.model, p, bytes);
    model_seconds = seconds_since_start() - begin;
    return values;
  };
  wave::Setup setup = make_setup(
      config, [&](const wave::Setup& s) { return wave::split_grid(s, grid.decomposition(), grid.coord()); }, model,
      *group, memory.fields, memory.host, memory.host_fields, part, model_bytes);
  validate_shots(config, shots, setup);
  wave::validate(setup, part, memory.fields);
  const Seismogram seismogram = seismogram_of(config.trace_dt, setup);
  double highest_f0 = 0;
  for (const io::SurveyShot& shot : shots) highest_f0 = std::max(highest_f0, shot_config(config, shot).f0);
  const std::string dispersion = dispersion_warning(setup, highest_f0, *group);
  if (!dispersion.empty() && root) std::cerr << "seis-wave: warning: the survey's highest f0: " << dispersion << "\n";

  // The model's content, for the shots' fingerprints, on the ranks that write records.
  const std::string digest = group->rank() == 0 ? model_digest(config) : std::string();
  // Rank 0 decides what runs (its refusal ends every rank) and tells the others.
  std::vector<io::ShotRecord> records;
  int skipped = 0;
  std::string pending_text;
  const io::SurveySummary summary_start{config.survey,
                                        started_date,
                                        "",
                                        world.size(),
                                        config.ranks_per_shot,
                                        0,
                                        0,
                                        world.sum(double(model_bytes)),
                                        {},
                                        {}};
  const double setup_ready = world.max(seconds_since_start());
  const double model_fastest = -world.max(-model_seconds), model_slowest = world.max(model_seconds);
  if (root) {
    // Writable, with room for every shot's gather (a survey's own earlier files are judged shot by shot below).
    // Each shot's gather, its picture and its record.
    io::prepare_output_directory(
        config.output,
        {true, false, (seismogram.bytes + io::max_picture_bytes + 65536) * shots.size(), io::RunKind::survey});
    wave::Setup placed = setup;
    const auto expected = [&](const io::SurveyShot& shot) {
      place_shot(shot_config(config, shot), placed);
      return shot_fingerprint(config, placed, digest);
    };
    const std::vector<int> pending = shots_to_run(config, shots, expected, records, skipped);
    io::SurveySummary s = summary_start;
    s.restarts_skipped = skipped;
    io::write_manifest((fs::path(config.output) / "survey.json").string(), s, records);
    pending_text = to_text(pending);
    std::cout << "seis-wave survey " << config.survey << ": " << shots.size() << " shots (" << pending.size()
              << " to run, " << skipped << " complete already) of " << grid_text(setup) << ", " << setup.steps
              << " steps each, on " << groups << " group(s) of " << config.ranks_per_shot << " rank(s), "
              << compat::device_name<Exec>() << " (" << Exec::name() << "); started in " << std::setprecision(3)
              << runtime_ready << " s (MPI by " << mpi_ready << " s, the device by " << device_ready
              << " s), the model and checks " << setup_ready - runtime_ready << " s more (the model " << model_fastest
              << "-" << model_slowest << " s over the ranks)\n"
              << std::flush;
  }
  world.broadcast(pending_text);
  const std::vector<int> pending = from_text(pending_text);

  Team team{world,  *group,
            grid,   {config.mpi_timeout, mpi::parse_transport(config.halo_transport), !memory.host_fields},
            index,  seismogram,
            digest, nullptr,
            nullptr};
  mpi::SharedCounter counter(world);
  {
    ShotFinisher leader(config, seismogram);
    ShotFinisher* finisher = group->rank() == 0 ? &leader : nullptr;
    deal_shots(counter, group.get(), pending.size(), [&](std::size_t n) {
      run_shot(config, shots[std::size_t(pending[n] - 1)], team, setup, part, finisher);
    });
    leader.wait();
  }

  world.await_all();
  int failed = 0;
  if (root) {
    io::SurveySummary s = summary_start;
    s.restarts_skipped = skipped;
    s.ended = date_now();
    s.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    records.clear();
    int done = 0;
    for (const io::SurveyShot& shot : shots) {
      auto r = io::read_shot_record(config.output, shot.number);
      io::ShotRecord record = r ? *r : io::ShotRecord{};
      record.number = shot.number;
      failed += record.status == "failed";
      done += record.status == "done";
      records.push_back(record);
    }
    const std::string manifest = (fs::path(config.output) / "survey.json").string();
    io::write_manifest(manifest, s, records);
    std::cout << std::setprecision(4) << "survey done in " << s.wall_seconds << " s: " << done << " of " << shots.size()
              << " shots done (" << skipped << " of them complete before), " << failed << " failed; "
              << double(pending.size()) / s.wall_seconds << " shots/s\nwrote: " << manifest
              << " and the shots' files beside it\n";
  }
  failed = world.max(failed);
  if (failed > 0 && root)
    std::cerr << "seis-wave: " << failed << " shot(s) failed; their messages are in " << config.output
              << "/survey.json\n";
  return failed > 0 ? 1 : 0;
}

}  // namespace seis::runs

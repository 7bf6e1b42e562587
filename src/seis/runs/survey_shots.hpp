#pragma once
// What a modelling survey and a migration share of their shots: a shot's entry as the single run it stands for,
// every shot checked before the first runs, and the few words ranks pass about them.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "seis/io/run_config.hpp"
#include "seis/io/survey.hpp"
#include "seis/mpi/world.hpp"
#include "seis/wave/setup.hpp"

namespace seis::runs {

// The flags a shot's entry stands for: a survey's shot is the single run these flags make.
io::RunConfig shot_config(const io::RunConfig& c, const io::SurveyShot& shot);

// The shots of a migration or an inversion: the survey's (--survey), or the run's own shot as an entry.
std::vector<io::SurveyShot> run_shots(const io::RunConfig& c);

// The shots still to run, in the file's order: all of them, or on --restart those not complete (their records and
// files in c.output). A new survey refuses an output directory holding another's shots, which it would otherwise
// overwrite; a restart refuses a complete shot whose gather other inputs would change (`expected` gives a shot's
// fingerprint now), naming what changed, before any shot runs. `records` gets every shot's record (the complete
// ones as read, a fresh one for each pending), `skipped` the complete ones' count.
std::vector<int> shots_to_run(const io::RunConfig& c, const std::vector<io::SurveyShot>& shots,
                              const std::function<std::string(const io::SurveyShot&)>& expected,
                              std::vector<io::ShotRecord>& records, int& skipped);

// Deals `count` shots (0 .. count - 1) over the groups that share `counter`: a group's first rank takes the next
// from the counter (whichever group asks first gets it), and every rank of the group runs it; without a group,
// each rank takes its own. Each shot goes to one group once; returns when the counter has passed the last.
void deal_shots(mpi::SharedCounter& counter, const mpi::World* group, std::size_t count,
                const std::function<void(std::size_t)>& run);

// Every shot placed and checked against the grid (and by `also`, where given) before the first one runs; a bad one
// is refused with its line.
void validate_shots(const io::RunConfig& c, const std::vector<io::SurveyShot>& shots, wave::Setup& s,
                    const std::function<void(const wave::Setup&)>& also = {});

std::string host_name();

// The memory a rank of `world` may plan for: its share of the node's host memory, and the device's (the host's
// where the fields live there, `host_fields`).
struct MemoryAvailable {
  bool host_fields = false;
  std::size_t host = 0, fields = 0;
};
MemoryAvailable memory_available(const mpi::World& world);

// Shot numbers as text (a broadcast) and back.
std::string to_text(const std::vector<int>& values);
std::vector<int> from_text(const std::string& text);

}  // namespace seis::runs

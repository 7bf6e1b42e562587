#include "seis/operators/acoustic.hpp"

#include <Kokkos_Core.hpp>
#include <mutex>
#include <set>

#include "seis/core/compat.hpp"
#include "seis/core/error.hpp"
#include "seis/core/host_parallel.hpp"
#include "seis/imaging/shot_data.hpp"
#include "seis/operators/acoustic_engine.hpp"
#include "seis/wave/padding.hpp"

namespace seis::operators {

namespace {

// 2 v dt^2 x at every point of the grid: dq from dv, and (the same diagonal) the gradient in v from the one in q.
std::vector<float> times_dq_dv(const wave::Setup& s, const std::vector<float>& x) {
  const double factor = 2.0 * s.dt * s.dt;
  std::vector<float> out(x.size());
  for (std::size_t p = 0; p < x.size(); ++p) out[p] = static_cast<float>(factor * s.velocity[p] * x[p]);
  return out;
}

// A perturbation on the model's points, over the grid: zero in the layer, the transpose of the image's crop.
std::vector<float> over_grid(const wave::Setup& s, const std::vector<float>& x, const char* what) {
  const std::array<int, 3> n = wave::model_points(s);
  const wave::Subdomain model = wave::whole_grid(n[0], n[1], n[2]);
  require(x.size() == model.points(), what, " holds ", x.size(), " values, the ", n[0], "x", n[1], "x", n[2], " model ",
          model.points());
  return wave::extend(s, wave::whole_grid(s), model, x, wave::Fill::zero);
}

// (2 v dt^2)^times x on the model's points of x over the grid: an image in q as one in v (times 1), an
// illumination (times 2), rounded after each product as times_dq_dv rounds. The host's threads, plane by plane.
std::vector<float> model_gradient(const wave::Setup& s, const std::vector<float>& x, int times) {
  const double factor = 2.0 * s.dt * s.dt;
  const wave::Subdomain model = wave::model_region(s);
  const std::size_t nx = std::size_t(model.size[0]), ny = std::size_t(model.size[1]);
  std::vector<float> out(model.points());
  host_parallel_for(
      std::size_t(model.size[2]),
      [&](std::size_t first, std::size_t end) {
        for (std::size_t k = first; k < end; ++k)
          for (std::size_t j = 0; j < ny; ++j) {
            const std::size_t from =
                ((k + std::size_t(model.offset[2])) * std::size_t(s.ny) + j + std::size_t(model.offset[1])) *
                    std::size_t(s.nx) +
                std::size_t(model.offset[0]);
            float* row = out.data() + (k * ny + j) * nx;
            for (std::size_t i = 0; i < nx; ++i) {
              float value = x[from + i];
              for (int n = 0; n < times; ++n) value = static_cast<float>(factor * s.velocity[from + i] * value);
              row[i] = value;
            }
          }
      },
      1);
  return out;
}

void require_traces(const wave::Acquisition& shot, int steps, const std::vector<float>& traces, const char* what) {
  const std::size_t samples = shot.receivers.size() * std::size_t(steps);
  require(traces.size() == samples, what, " holds ", traces.size(), " samples, ", shot.receivers.size(),
          " receivers x ", steps, " steps need ", samples);
}

// An image and its illumination on the model's points.
Acoustic::Image cropped(const wave::Setup& s, const Acoustic::Image& on_grid) {
  return {wave::crop(s, on_grid.image), wave::crop(s, on_grid.illumination)};
}

// The medium given on the model's points (`grid`, no layer), over the setup's grid: each field extended into the
// layer by its edge values, as seis-wave extends a model file; its size checked first, naming it.
void place_medium(wave::Setup& s, const wave::Grid& grid, const wave::Medium& medium) {
  const wave::Subdomain model = wave::whole_grid(grid), all = wave::whole_grid(s);
  // Empty is allowed where the field is optional: constant density, no anisotropy parameter.
  const auto extended = [&](const std::vector<float>& values, const char* what, bool optional = true) {
    if (optional && values.empty()) return std::vector<float>{};
    require(values.size() == model.points(), what, " model has ", values.size(), " values, the ", grid.nx, "x", grid.ny,
            "x", grid.nz, " grid needs ", model.points());
    return wave::extend(s, all, model, values, wave::Fill::edge);
  };
  s.velocity = extended(medium.velocity, "velocity", false);
  s.density = extended(medium.density, "density");
  s.density_varies =
      !medium.density.empty() && medium.density_varies;  // the density form asked for, whatever the values
  const wave::Anisotropy& a = medium.anisotropy;
  s.anisotropy = {extended(a.epsilon, "epsilon"), extended(a.delta, "delta"), extended(a.tilt, "tilt"),
                  extended(a.azimuth, "azimuth"), a.source_zone};
  s.anisotropic = medium.anisotropic;
  s.vmax = medium.vmax;
}

bool started_here = false;

// The operators alive, whose kept engines stop_runtime frees before Kokkos is finalised (Python's exit finalises it
// before the module's objects are collected).
std::mutex live_turn;
std::set<const Acoustic*> live;

}  // namespace

Acoustic::Acoustic(const wave::Grid& grid, const wave::Medium& medium, const wave::Numerics& numerics,
                   const std::string& backend, std::size_t available_bytes)
    : grid_(grid) {
  require(grid.pad_low == std::array<int, 3>{} && grid.pad_high == std::array<int, 3>{},
          "the operators take the model's grid and add the absorbing layer around it themselves: the grid's padding "
          "must be 0");
  require(medium.model_part.points() == 0 || medium.model_part.whole(),
          "the operators step the whole grid: the medium must hold all of the model");
  static_cast<wave::Grid&>(setup_) =
      wave::padded_grid({grid.nx, grid.ny, grid.nz}, grid.h, grid.ndamp, numerics.boundary, numerics.top);
  static_cast<wave::Numerics&>(setup_) = numerics;
  place_medium(setup_, grid, medium);
  require(setup_.steps > 0, "steps ", setup_.steps, " must be > 0");
  if (setup_.dt == 0) setup_.dt = wave::default_dt(setup_);
  wave::validate(setup_, available_bytes);
  engine_ = make_engine(backend, available_bytes, backend_);
  const std::lock_guard<std::mutex> turn(live_turn);
  live.insert(this);
}

Acoustic::~Acoustic() {
  const std::lock_guard<std::mutex> turn(live_turn);
  live.erase(this);
}

template <class Run>
auto Acoustic::with_shot(const wave::Acquisition& shot, const Run& run) const {
  const std::lock_guard<std::mutex> turn(call_);
  wave::validate_shot(setup_, shot, setup_.dt);
  struct Restore {
    wave::Setup& s;
    ~Restore() { static_cast<wave::Acquisition&>(s) = wave::Acquisition{}; }
  } restore{setup_};
  static_cast<wave::Acquisition&>(setup_) = shot;
  return run(static_cast<const wave::Setup&>(setup_));
}

std::vector<float> Acoustic::forward(const wave::Acquisition& shot) const {
  return with_shot(shot, [&](const wave::Setup& s) { return engine_->forward(s); });
}

std::vector<float> Acoustic::born(const wave::Acquisition& shot, const std::vector<float>& dv) const {
  return born(shot, dv, {});
}

std::vector<float> Acoustic::born(const wave::Acquisition& shot, const std::vector<float>& dv,
                                  const std::vector<float>& drho) const {
  const auto dq = times_dq_dv(setup_, over_grid(setup_, dv, "dv"));
  require(drho.empty() || wave::variable_density(setup_),
          "a density perturbation needs a density that varies (the medium's density, not one value)");
  const auto extended = drho.empty() ? std::vector<float>{} : over_grid(setup_, drho, "drho");
  return with_shot(shot, [&](const wave::Setup& s) { return engine_->born(s, dq, extended); });
}

Acoustic::Gradient Acoustic::gradient(const wave::Acquisition& shot, const std::vector<float>& residual,
                                      GradientParts parts) const {
  require_traces(shot, setup_.steps, residual, "the residual");
  return gradient(
      shot, [&](const std::vector<float>&) { return residual; }, parts);
}

Acoustic::Gradient Acoustic::gradient(const wave::Acquisition& shot, const Residual& residual,
                                      GradientParts parts) const {
  require(!parts.density || wave::variable_density(setup_),
          "the density's gradient needs a density that varies (the medium's density, not one value)");
  const auto image = with_shot(shot, [&](const wave::Setup& s) {
    return engine_->adjoint(
        s,
        [&](const std::vector<float>& modelled) {
          const std::vector<float> r = residual(modelled);
          require_traces(s, s.steps, r, "the residual");
          return imaging::adjoint_sources(r, s.receivers.size(), s.steps, s.h);
        },
        parts);
  });
  return {model_gradient(setup_, image.velocity, 1),
          parts.density ? wave::crop(setup_, image.density) : std::vector<float>{},
          parts.illumination ? model_gradient(setup_, image.illumination, 2) : std::vector<float>{}};
}

std::vector<float> Acoustic::adjoint(const wave::Acquisition& shot, const std::vector<float>& residual) const {
  return gradient(shot, residual).velocity;
}

Acoustic::Gradient Acoustic::adjoint_with_density(const wave::Acquisition& shot,
                                                  const std::vector<float>& residual) const {
  return gradient(shot, residual, {true, false});
}

Acoustic::Image Acoustic::rtm(const wave::Acquisition& shot, const std::vector<float>& observed) const {
  return with_shot(shot, [&](const wave::Setup& s) {
    require_traces(s, s.steps, observed, "the observed data");
    return cropped(s, engine_->rtm(s, imaging::backward_sources(observed, s.receivers.size(), s.steps, s.dt)));
  });
}

std::vector<std::vector<float>> Acoustic::survey(const std::vector<wave::Acquisition>& shots,
                                                 const Progress& progress) const {
  if (shots.empty()) return {};
  for (const wave::Acquisition& shot : shots) wave::validate_shot(setup_, shot, setup_.dt);
  return with_shot(shots.front(), [&](const wave::Setup& s) { return engine_->survey(s, shots, progress); });
}

Acoustic::Image Acoustic::migrate(const std::vector<wave::Acquisition>& shots,
                                  const std::vector<std::vector<float>>& observed, const Progress& progress) const {
  require(observed.size() == shots.size(), "observed data for ", observed.size(), " shots, ", shots.size(),
          " shots to migrate");
  const std::size_t model_points = wave::model_region(setup_).points();
  if (shots.empty()) return {std::vector<float>(model_points), std::vector<float>(model_points)};
  for (std::size_t n = 0; n < shots.size(); ++n) {
    wave::validate_shot(setup_, shots[n], setup_.dt);
    const std::size_t receivers = shots[n].receivers.size();
    require(observed[n].size() == receivers * std::size_t(setup_.steps), "shot ", n, "'s observed data hold ",
            observed[n].size(), " samples, ", receivers, " receivers x ", setup_.steps, " steps need ",
            receivers * std::size_t(setup_.steps));
  }
  // A migration engine plans its imaging interval by the wavelet: one engine per run of consecutive shots with the
  // same wavelet and f0, so that each shot is imaged as rtm images it; the stack is added in shot order. Only the
  // run's injected traces are held.
  Image stack;
  for (std::size_t first = 0; first < shots.size();) {
    std::size_t end = first + 1;
    while (end < shots.size() && shots[end].wavelet == shots[first].wavelet && shots[end].f0 == shots[first].f0) ++end;
    const std::vector<wave::Acquisition> run(shots.begin() + long(first), shots.begin() + long(end));
    std::vector<std::vector<float>> injected;
    for (std::size_t n = first; n < end; ++n)
      injected.push_back(imaging::backward_sources(observed[n], shots[n].receivers.size(), setup_.steps, setup_.dt));
    const auto done = [&](std::size_t n, std::size_t) {
      if (progress) progress(first + n, shots.size());
    };
    with_shot(run.front(), [&](const wave::Setup& s) {
      engine_->migrate(s, run, injected, stack, done);
      return 0;
    });
    first = end;
  }
  return cropped(setup_, stack);
}

void Acoustic::set_medium(const wave::Medium& medium) {
  const std::lock_guard<std::mutex> turn(call_);
  wave::Setup next;  // the scheme's and grid's parts of setup_, not its model
  static_cast<wave::Grid&>(next) = setup_;
  static_cast<wave::Numerics&>(next) = setup_;
  place_medium(next, grid_, medium);
  wave::require_same_scheme(setup_, next);
  wave::validate(next, std::numeric_limits<std::size_t>::max());  // the memory is had already
  engine_->set_model(next);
  setup_ = std::move(next);
}

void Acoustic::release() const {
  const std::lock_guard<std::mutex> turn(call_);
  engine_->release();
}

void start_runtime(int threads) {
  if (Kokkos::is_initialized()) return;
  compat::default_thread_placement();
  compat::initialize(threads);
  started_here = true;
}

void stop_runtime() {
  if (!started_here || !Kokkos::is_initialized()) return;
  {
    const std::lock_guard<std::mutex> turn(live_turn);
    for (const Acoustic* a : live) a->release();
  }
  Kokkos::finalize();
  started_here = false;
}

}  // namespace seis::operators

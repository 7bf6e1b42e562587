#pragma once
// Definitions of simulation.hpp, included once per backend by a generated translation unit: a time step is the
// parts' work in order (record the receivers, send the halos, update the core, receive the halos, update the face
// layers, inject the sources, swap).
#include <algorithm>
#include <array>
#include <limits>
#include <utility>

#include "seis/core/compat.hpp"
#include "seis/core/profiling_region.hpp"
#include "seis/kernels/copy.hpp"
#include "seis/wave/free_surface.hpp"
#include "seis/wave/halo_driver.hpp"
#include "seis/wave/injection.hpp"
#include "seis/wave/propagator.hpp"
#include "seis/wave/recording.hpp"
#include "seis/wave/simulation.hpp"
#include "seis/wave/wavefield.hpp"

namespace seis::wave {

template <class ExecSpace>
struct Simulation<ExecSpace>::Impl {
  using Floats = Kokkos::View<float*, memory_space>;
  // First: it checks the launch options against the backend's limits before anything else is allocated.
  Propagator<ExecSpace> propagator;
  Wavefield<memory_space> wavefield;
  KeptStates<memory_space> kept;
  Injection<ExecSpace> sources;
  Recording<ExecSpace> receivers;
  HaloDriver<ExecSpace> halos;
  FreeSurface<ExecSpace> surface;
  // The stability watch's per-worker maxima (largest_magnitude), on the device and their host copy: on GPUs about
  // one thread per resident slot of a large device (2^18), on hosts a few runs per thread.
  Floats largest{"seis::wave::largest", is_gpu_space<ExecSpace>() ? 1 << 18 : 1 << 10};
  typename Floats::HostMirror largest_host = Kokkos::create_mirror_view(largest);

  // Exchange `stage` of step n: the TTI step's two (its fields p and r, then their rotated derivatives, numbered 2 n
  // and 2 n + 1: their parities alternate, as a direct transport's buffers need), the other steps' one (u, n).
  struct Exchange {
    std::array<float*, 2> fields;
    int number;
  };
  Exchange exchange(int stage, int n) const {
    if (!propagator.tti()) return {{wavefield.u.data(), nullptr}, n};
    if (stage == 0) return {{wavefield.u.data(), wavefield.r.data()}, 2 * n};
    return {{propagator.rotated_derivative(0), propagator.rotated_derivative(1)}, 2 * n + 1};
  }

  Impl(const Setup& setup, const Subdomain& part, const FieldLayout& layout, const PmlGeometry& pml, HaloExchange* halo)
      : propagator(setup, part, layout, pml),
        // The TTI step's layer is a damping term: no phi.
        wavefield(layout, tti_medium(setup) ? 0 : pml.stored(), steps_per_launch(setup.shape) == 2, tti_medium(setup)),
        // The TTI step's exchanges carry two fields: p and r, then G p and G r.
        halos(part, layout, layout.halo, default_window(setup.radius), tti_medium(setup) ? 2 : 1, halo),
        surface(setup, part, layout) {}
};

template <class ExecSpace>
Simulation<ExecSpace>::Simulation(const Setup& setup, const Subdomain& part, HaloExchange* halo)
    : setup_(without_model(setup)), part_(part) {
  validate(setup, part_, compat::available_memory_bytes());
  layout_ = make_layout(part_.size[0], part_.size[1], part_.size[2], halo_depth(setup_));
  pml_ = make_pml_geometry(setup_, part_);
  impl_ = std::make_unique<Impl>(setup, part_, layout_, pml_, halo);
  impl_->sources.place(setup_, part_, layout_, nullptr);
  impl_->receivers.place(setup_, part_, layout_);
}

template <class ExecSpace>
void Simulation<ExecSpace>::new_shot(const Acquisition& shot, const SourceZones* zones) {
  restart_shot(shot, nullptr, Injected::sources, zones);
}

template <class ExecSpace>
void Simulation<ExecSpace>::new_shot(const Setup& shot) {
  const SourceZones zones{shot, shot};
  restart_shot(shot, nullptr, Injected::sources, &zones);
}

template <class ExecSpace>
void Simulation<ExecSpace>::new_shot(const std::vector<Point>& sources, const std::vector<float>& source_traces,
                                     const std::vector<Point>& receivers, Injected as, const SourceZones* zones) {
  require(steps_per_launch(setup_.shape) == 1, "sources with traces of their own: the ", to_string(setup_.shape),
          " kernel's fused two steps inject one wavelet; choose a one-step kernel (tile)");
  const std::size_t samples = sources.size() * std::size_t(setup_.steps);
  require(source_traces.size() == samples, "source traces hold ", source_traces.size(), " samples, ", sources.size(),
          " sources x ", setup_.steps, " steps need ", samples);
  restart_shot(Acquisition{sources, receivers, setup_.wavelet, setup_.f0}, &source_traces, as, zones);
}

template <class ExecSpace>
void Simulation<ExecSpace>::restart_shot(const Acquisition& shot, const std::vector<float>* source_traces, Injected as,
                                         const SourceZones* zones) {
  // The shot against the grid alone: the Nyquist check of f0 against dt is the run's (validate).
  validate_shot(setup_, shot, 0.0);
  // The zones move where the last shot's or the next one's has any (1 + 2 epsilon refilled around both); a
  // shot from the same sources may keep them without the medium (Born's scattered wavefield, whose sources fire
  // nothing from its background's).
  const auto same_place = [](const Point& a, const Point& b) { return a.x == b.x && a.y == b.y && a.z == b.z; };
  const bool same_sources = shot.sources.size() == setup_.sources.size() &&
                            std::equal(shot.sources.begin(), shot.sources.end(), setup_.sources.begin(), same_place);
  const bool moved = tti_medium(setup_) && (setup_.anisotropy.source_zone != 0 ||
                                            (zones != nullptr && zones->medium.anisotropy.source_zone != 0));
  require(zones != nullptr || !moved || same_sources,
          "a new shot in an anisotropic medium moves the zones around its sources where epsilon is taken to delta: "
          "give the medium (new_shot with the setup), or source_zone 0 for none");
  if (zones != nullptr && moved)
    require(zones->medium.velocity.size() == model_box(zones->medium).points(),
            "a new shot's setup in an anisotropic medium carries the medium for its source zones: it holds ",
            zones->medium.velocity.size(), " velocities, its model box ", model_box(zones->medium).points(), " points");
  static_cast<Acquisition&>(setup_) = shot;
  Impl& m = *impl_;
  Kokkos::fence();
  m.wavefield.zero();
  m.sources.place(setup_, part_, layout_, source_traces);
  if (as == Injected::adjoint_data && m.propagator.rho() != nullptr) m.sources.scale_by(m.propagator.rho());
  m.receivers.place(setup_, part_, layout_);
  if (zones != nullptr && moved) {
    m.propagator.place_source_zones(*zones, part_);
    setup_.anisotropy.source_zone = zones->medium.anisotropy.source_zone;
  }
  image_ = {};
  weight_ = {};
  step_ = 0;
  m.halos.reset_seconds();
  Kokkos::fence();
}

template <class ExecSpace>
void Simulation<ExecSpace>::set_model(const Setup& model) {
  require_same_scheme(setup_, model);
  validate(model, part_, std::numeric_limits<std::size_t>::max());  // the memory is had already
  Kokkos::fence();
  impl_->propagator.set_model(model, part_);
  setup_.vmax = model_vmax(model);
  Kokkos::fence();
}

template <class ExecSpace>
void Simulation<ExecSpace>::transpose_step(bool on) {
  require(!on || !impl_->halos.exchanges(), "the transposed step runs on one part: this part shares faces");
  Kokkos::fence();
  impl_->propagator.transpose(on);
}

template <class ExecSpace>
Simulation<ExecSpace>::~Simulation() = default;

template <class ExecSpace>
double Simulation<ExecSpace>::halo_seconds() const {
  return impl_->halos.seconds();
}

template <class ExecSpace>
const TileShape& Simulation<ExecSpace>::tile() const {
  return impl_->propagator.tile();
}

template <class ExecSpace>
void Simulation<ExecSpace>::advance(int steps) {
  const ProfilingRegion advancing("seis::wave::advance");
  const int last = std::min(setup_.steps, step_ + std::max(steps, 0));
  while (step_ < last) {
    const ProfilingRegion step("seis::wave::step");
    if (steps_per_launch(setup_.shape) == 2 && step_ + 2 <= last) {
      two_steps();
    } else {
      begin_step();
      middle_step();
      finish_step();
    }
  }
  impl_->propagator.main().fence();
}

template <class ExecSpace>
void Simulation<ExecSpace>::advance(int steps, StepTerm<memory_space>& term) {
  require(!impl_->halos.exchanges() && steps_per_launch(setup_.shape) == 1,
          "a driver's term in the step needs one part and a one-step kernel (", to_string(setup_.shape), ")");
  require(!tti_medium(setup_) || term.steps_both_fields(),
          "in anisotropic media a driver's term in the step must take the TTI step's two fields (Born modelling's "
          "and the exact adjoint's Born weights do)");
  Impl& m = *impl_;
  const ProfilingRegion advancing("seis::wave::advance");
  const int last = std::min(setup_.steps, step_ + std::max(steps, 0));
  while (step_ < last) {
    const ProfilingRegion step("seis::wave::step");
    term.before(step_fields());
    image_ = term.carried();
    weight_ = term.carried_weight();
    begin_step();
    finish_step();
    if (term.waits_for_steps()) m.propagator.main().fence();
    term.after(step_fields());
    // What the term added on the surface goes too (its own instance has finished: after() fences).
    for (const Field<memory_space>* field : m.wavefield.fields(false))
      m.surface.apply(m.propagator.main(), field->data());
  }
  m.propagator.main().fence();
}

template <class ExecSpace>
StepFields<typename ExecSpace::memory_space> Simulation<ExecSpace>::step_fields() const {
  StepFields<memory_space> f = impl_->propagator.fields(impl_->wavefield);
  f.carries_weight = impl_->propagator.carries_weight() && !impl_->halos.exchanges();
  f.injected = impl_->sources.offsets();
  return f;
}

template <class ExecSpace>
void Simulation<ExecSpace>::two_steps() {
  Impl& m = *impl_;
  Wavefield<memory_space>& w = m.wavefield;
  m.receivers.record(m.propagator.main(), w.u.data(), step_);
  TwoSteps two;
  two.u_1 = w.spare_1.data();
  two.u_2 = w.spare_2.data();
  two.phi_2 = w.phi_spare.data();
  m.sources.two_steps(two, step_);
  m.propagator.two_steps(w, two);
  compat::check_last_launch("wave step (two steps)");
  m.receivers.record(m.propagator.main(), w.spare_1.data(), step_ + 1);
  w.next_two_steps();
  step_ += 2;
}

template <class ExecSpace>
void Simulation<ExecSpace>::begin_step() {
  require(step_ < setup_.steps, "begin_step: the run's ", setup_.steps, " steps are done");
  Impl& m = *impl_;
  const ExecSpace& main = m.propagator.main();
  float* u = m.wavefield.u.data();
  m.receivers.record(main, u, step_);
  if (!m.halos.exchanges()) return m.propagator.step(m.wavefield, m.halos.core(), main, image_, weight_);
  // The faces are packed on their own instances once the previous step is done, and a message transport's
  // exchange starts only after the core has been enqueued.
  const ProfilingRegion sending("seis::wave::halo_send");
  const typename Impl::Exchange first = m.exchange(0, step_);
  m.propagator.instances().fork();
  m.halos.send(m.propagator.instances(), first.fields, first.number);
  if (m.propagator.tti())
    m.propagator.tti_pass(m.wavefield, TtiPass::derivatives, m.halos.core(), main);
  else
    m.propagator.step(m.wavefield, m.halos.core(), main, image_);
  m.halos.start(m.propagator.instances());
}

template <class ExecSpace>
void Simulation<ExecSpace>::middle_step() {
  Impl& m = *impl_;
  if (!m.halos.exchanges() || !m.propagator.tti()) return;
  // p's and r's halos, then G p and G r at the face layers (the core's are under way on instance 0); the second
  // pass's core waits for both (it reads G up to R beyond a point), and the packs of G for the core's first pass.
  const ExecSpace& main = m.propagator.main();
  const ExecSpace& boundary = m.propagator.instances()[boundary_instance];
  const typename Impl::Exchange first = m.exchange(0, step_), second = m.exchange(1, step_);
  m.halos.receive(boundary, first.fields, first.number);
  for (int f = 0; f < face_count; ++f)
    m.propagator.tti_pass(m.wavefield, TtiPass::derivatives, m.halos.face_layers()[f], boundary);
  m.propagator.instances().order(0, boundary_instance);
  const ProfilingRegion sending("seis::wave::halo_send");
  m.propagator.instances().fork();
  m.halos.send(m.propagator.instances(), second.fields, second.number);
  m.propagator.tti_pass(m.wavefield, TtiPass::update, m.halos.core(), main);
  m.halos.start(m.propagator.instances());
}

template <class ExecSpace>
void Simulation<ExecSpace>::finish_step() {
  Impl& m = *impl_;
  const ExecSpace& main = m.propagator.main();
  if (m.halos.exchanges()) {
    // The halos are unpacked and the face layers updated on their own instance, beside the core where the strategy
    // launches on one instance (unified, two): they read and write no point the core does, and wait only for the
    // halos; the step ends once both are done. The seven strategy forks from instance 0 and stays there.
    const bool beside = setup_.strategy != Strategy::seven;
    const ExecSpace& boundary = beside ? m.propagator.instances()[boundary_instance] : main;
    const bool tti = m.propagator.tti();
    const typename Impl::Exchange last = m.exchange(tti ? 1 : 0, step_);
    m.halos.receive(boundary, last.fields, last.number);
    for (int f = 0; f < face_count; ++f) {
      const Box& layer = m.halos.face_layers()[f];
      if (layer.points() == 0) continue;
      if (tti)
        m.propagator.tti_pass(m.wavefield, TtiPass::update, layer, boundary);
      else
        m.propagator.step(m.wavefield, layer, boundary, image_);
    }
    if (beside) m.propagator.instances().order(0, boundary_instance);
  }
  compat::check_last_launch("wave step");
  m.sources.inject(main, m.propagator.q(), m.wavefield.u_prev.data(), step_, m.propagator.source_direction());
  if (m.propagator.source_direction() != nullptr)
    m.sources.inject(main, m.propagator.q(), m.wavefield.r_prev.data(), step_);
  for (const Field<memory_space>* field : m.wavefield.fields(true)) m.surface.apply(main, field->data());
  m.wavefield.next_step();
  ++step_;
  image_ = {};
  weight_ = {};
}

namespace {
template <class View>
std::vector<float> to_host_vector(const View& view, std::size_t count) {
  std::vector<float> out(count);
  Kokkos::View<float*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> target(out.data(), count);
  Kokkos::deep_copy(target, Kokkos::subview(view, std::make_pair(std::size_t(0), count)));
  return out;
}
}  // namespace

template <class ExecSpace>
State Simulation<ExecSpace>::state() const {
  const Impl& m = *impl_;
  State s;
  s.step = step_;
  for (bool previous : {false, true})
    for (const Field<memory_space>* field : m.wavefield.fields(previous)) {
      const std::vector<float> values = to_host_vector(field->span(), layout_.size);
      std::vector<float>& to = previous ? s.u_prev : s.u;
      to.insert(to.end(), values.begin(), values.end());
    }
  s.phi = to_host_vector(m.wavefield.phi, m.wavefield.phi_stored);
  s.traces = corner_traces();
  return s;
}

template <class ExecSpace>
void Simulation<ExecSpace>::restore(const State& s) {
  Impl& m = *impl_;
  const std::size_t traces = setup_.receivers.size() * 8 * std::size_t(setup_.steps);
  require(s.step >= 0 && s.step <= setup_.steps, "checkpoint step ", s.step, " is outside this run's 0..",
          setup_.steps);
  const std::size_t fields = std::size_t(wavefield_count(setup_)) * layout_.size;
  require(s.u.size() == fields && s.u_prev.size() == fields, "checkpoint fields hold ", s.u.size(),
          " floats, this run's ", wavefield_count(setup_), " x its layout's ", layout_.size);
  require(s.phi.size() == m.wavefield.phi_stored, "checkpoint PML holds ", s.phi.size(), " floats, this run's ",
          m.wavefield.phi_stored);
  require(s.traces.size() == traces, "checkpoint traces hold ", s.traces.size(), " samples, this run's ", traces);
  auto copy = [](const auto& view, const float* in, std::size_t size) {
    Kokkos::View<const float*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> source(in, size);
    Kokkos::deep_copy(Kokkos::subview(view, std::make_pair(std::size_t(0), size)), source);
  };
  for (bool previous : {false, true}) {
    const float* from = (previous ? s.u_prev : s.u).data();
    for (const Field<memory_space>* field : m.wavefield.fields(previous)) {
      copy(field->span(), from, layout_.size);
      from += layout_.size;
    }
  }
  copy(m.wavefield.phi, s.phi.data(), s.phi.size());
  copy(m.receivers.traces(), s.traces.data(), s.traces.size());
  step_ = s.step;
  Kokkos::fence();
}

template <class ExecSpace>
int Simulation<ExecSpace>::keep() {
  Impl& m = *impl_;
  return m.kept.keep(m.propagator.main(), m.wavefield, m.receivers.traces(), m.receivers.count(), step_);
}

template <class ExecSpace>
void Simulation<ExecSpace>::return_to(int slot) {
  Impl& m = *impl_;
  step_ = m.kept.return_to(m.propagator.main(), slot, m.wavefield, m.receivers.traces());
}

template <class ExecSpace>
void Simulation<ExecSpace>::drop_kept() {
  impl_->kept.clear();
}

template <class ExecSpace>
std::size_t Simulation<ExecSpace>::kept_bytes() const {
  return (2 * std::size_t(wavefield_count(setup_)) * layout_.size + impl_->wavefield.phi_stored +
          setup_.receivers.size() * 8 * std::size_t(setup_.steps)) *
         sizeof(float);
}

template <class ExecSpace>
Kokkos::View<const float*, typename ExecSpace::memory_space> Simulation<ExecSpace>::field() const {
  return impl_->wavefield.u.span();
}

template <class ExecSpace>
std::vector<float> Simulation<ExecSpace>::corner_traces() const {
  return to_host_vector(impl_->receivers.traces(), impl_->receivers.count());
}

template <class ExecSpace>
std::vector<float> Simulation<ExecSpace>::traces() const {
  return sum_corners(corner_traces(), setup_.receivers.size(), setup_.steps, step_);
}

template <class ExecSpace>
std::vector<float> Simulation<ExecSpace>::wavefield(bool previous) const {
  const Field<Kokkos::HostSpace> host = to_host(previous ? impl_->wavefield.u_prev : impl_->wavefield.u);
  std::vector<float> out(layout_.interior_points());
  std::size_t n = 0;
  for (int k = 0; k < layout_.nz; ++k)
    for (int j = 0; j < layout_.ny; ++j)
      for (int i = 0; i < layout_.nx; ++i) out[n++] = host.data()[layout_.offset(i, j, k)];
  return out;
}

template <class ExecSpace>
float Simulation<ExecSpace>::largest_magnitude() const {
  const Impl& m = *impl_;
  const float* u = m.wavefield.u.data();
  const auto n = index_t(layout_.size), workers = index_t(m.largest.size());
  // NaN compares false with everything: counted as infinity, so that a field gone to NaN is seen.
  const float infinity = std::numeric_limits<float>::infinity();
  // Each worker's maximum over its share, then the largest of those on the host: no shared memory and no
  // atomics (Kokkos 3.4's CUDA reductions draw racecheck's warnings, kokkos#4482). GPU workers stride through the
  // field (neighbouring threads read neighbouring floats); host workers take contiguous runs.
  constexpr bool strided = is_gpu_space<ExecSpace>();
  const index_t run = (n + workers - 1) / workers;
  const auto largest = m.largest;
  Kokkos::parallel_for(
      "seis::wave::largest_magnitude",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(m.propagator.main(), 0, workers),
      KOKKOS_LAMBDA(const index_t w) {
        float big = 0;
        // Four loads in flight per thread: enough bytes outstanding to stream the field.
        for (index_t k = 0; k < run; k += 4)
          for (index_t j = k; j < k + 4 && j < run; ++j) {
            const index_t p = strided ? w + j * workers : w * run + j;
            const float v = p < n ? u[p] : 0.0f;
            const float magnitude = v == v ? (v < 0 ? -v : v) : infinity;
            big = magnitude > big ? magnitude : big;
          }
        largest(w) = big;
      });
  Kokkos::deep_copy(m.propagator.main(), m.largest_host, largest);
  m.propagator.main().fence();
  float result = 0;
  for (std::size_t w = 0; w < m.largest_host.size(); ++w) result = std::max(result, m.largest_host(w));
  return result;
}

template <class ExecSpace>
double Simulation<ExecSpace>::copy_bandwidth(int repeats, std::size_t bytes) {
  require(step_ == 0, "copy_bandwidth: measured before the first step only (step ", step_, ")");
  Impl& m = *impl_;
  const ExecSpace& main = m.propagator.main();
  const auto measure = [&](const Field<memory_space>& from, const Field<memory_space>& to) {
    vector_copy(main, from, to);
    main.fence();
    Kokkos::Timer timer;
    for (int n = 0; n < repeats; ++n) vector_copy(main, from, to);
    main.fence();
    const double seconds = timer.seconds() / std::max(repeats, 1);
    return 2.0 * from.layout().size * sizeof(float) / seconds * 1e-9;
  };
  const std::size_t plane_bytes = std::size_t(layout_.plane) * sizeof(float);
  if (bytes <= 2 * layout_.size * sizeof(float)) {
    const double gb_per_s = measure(m.wavefield.u, m.wavefield.u_prev);
    Kokkos::deep_copy(m.wavefield.u.span(), 0.0f);
    Kokkos::deep_copy(m.wavefield.u_prev.span(), 0.0f);
    return gb_per_s;
  }
  // As many planes of this part's shape as make half of `bytes`.
  const int planes = int((bytes / 2 + plane_bytes - 1) / plane_bytes) - 2 * layout_.halo;
  const FieldLayout scratch = make_layout(layout_.nx, layout_.ny, std::max(planes, 1), layout_.halo);
  const Field<memory_space> from("seis::wave::copy yardstick", scratch), to("seis::wave::copy yardstick", scratch);
  // Written first: pages never written read as the one zero page, which a copy then reads from cache.
  Kokkos::deep_copy(main, from.span(), 1.0f);
  return measure(from, to);
}

template <class ExecSpace>
double Simulation<ExecSpace>::bytes_per_step() const {
  // The TTI step reads p, r, their previous steps, q and five coefficient fields and writes p and r: 48 bytes at
  // every point (its layer's damping is three profiles); its transpose 24 more, the pass psi = C nu (p, r and two
  // coefficients read, psi's two fields written).
  if (tti_medium(setup_))
    return (impl_->propagator.transposed() ? 72.0 : 48.0) * static_cast<double>(layout_.interior_points());
  const double pml_points = static_cast<double>(pml_.points());
  const double inner = static_cast<double>(layout_.interior_points()) - pml_points;
  if (steps_per_launch(setup_.shape) == 2) return 10.0 * inner + 14.0 * pml_points;
  // A density that varies is a fourth field read at every point.
  const double density = setup_.density_varies ? 4.0 : 0.0;
  return (16.0 + density) * inner + (24.0 + density) * pml_points;
}

template <class ExecSpace>
double Simulation<ExecSpace>::updates_per_point() const {
  if (steps_per_launch(setup_.shape) == 1) return 1.0;
  // Step n + 1 at the grid's points of every widened tile (tx + 2R columns, ty + 2R rows, nw + 2R planes), step
  // n + 2 once per point: the sums over the tiles factor by axis.
  const int R = setup_.radius;
  const auto covered = [R](int n, int tile) {
    double sum = 0;
    for (int first = 0; first < n; first += tile) sum += std::min(n, first + tile + R) - std::max(0, first - R);
    return sum;
  };
  const double points = static_cast<double>(layout_.interior_points());
  const TileShape& t = tile();
  const double first_step = covered(layout_.nx, t.tx) * covered(layout_.ny, t.ty) * covered(layout_.nz, t.nw);
  return (first_step + points) / (2.0 * points);
}

}  // namespace seis::wave

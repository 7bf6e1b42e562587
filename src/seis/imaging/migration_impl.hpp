#pragma once
// Migration<ExecSpace>'s definition, instantiated once per backend (instantiate_migration.cpp.in).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <optional>
#include <string>

#include "seis/core/error.hpp"
#include "seis/core/profiling_region.hpp"
#include "seis/imaging/density_terms.hpp"
#include "seis/imaging/migration.hpp"
#include "seis/imaging/step_terms.hpp"
#include "seis/wave/shape.hpp"
#include "seis/wave/simulation.hpp"

namespace seis::imaging {

namespace detail {

// A setup for one of the migration's two simulations: no receivers (neither records), a one-step kernel for the
// receiver side (the 3.5D shapes inject one wavelet), without sources (in an anisotropic medium a shot's backward
// pass places the zones of its sources, wave/source_zone.hpp).
inline wave::Setup simulation_setup(const wave::Setup& model, bool receiver_side) {
  wave::Setup s = model;
  s.receivers.clear();
  if (receiver_side) {
    s.sources.clear();
    if (wave::steps_per_launch(s.shape) == 2) s.shape = wave::Shape::tile;
  }
  return s;
}

// image += s r, illumination += s s (where it is given) over the padded field (zero outside the interior in both),
// and the same for s2 and r2 where given (the TTI step's second field): the image that no receiver step carries. A
// free function: CUDA's extended lambdas may not live in a private nested class. The FMAs are written out: left to
// contraction, GCC rounded the image's sum another way once the illumination's became conditional.
template <class ExecSpace, class Floats, class Field>
void correlate(const Floats& image, const Floats& illumination, const Floats& s, const Field& r, const Floats& s2 = {},
               const Field& r2 = {}) {
  const bool second = s2.data() != nullptr, lit = illumination.data() != nullptr;
  Kokkos::parallel_for(
      "seis::imaging::correlate", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::size_t>>(0, s.size()),
      KOKKOS_LAMBDA(const std::size_t c) {
        const float a = s(c), b = second ? s2(c) : 0.0f;
        image(c) += second ? fmaf(a, r(c), b * r2(c)) : a * r(c) + 0.0f;
        if (lit) illumination(c) += fmaf(b, b, a * a);
      });
}

// The interior of `padded` into `out`'s first nx ny nz floats, x fastest, times 1 / (D3 q rho) where `adjoint_scaled`.
template <class ExecSpace, class Memory>
void gather_interior(const StepTerms<Memory>& t, const Kokkos::View<float*, Memory>& padded,
                     const Kokkos::View<float*, Memory>& out, bool adjoint_scaled) {
  const std::size_t nx = std::size_t(t.layout.nx), plane = nx * std::size_t(t.layout.ny);
  Kokkos::parallel_for(
      "seis::imaging::interior", interior<ExecSpace>(t), KOKKOS_LAMBDA(const int i, const int j, const int k) {
        const index_t c = t.layout.offset(i, j, k);
        out(std::size_t(k) * plane + std::size_t(j) * nx + std::size_t(i)) =
            adjoint_scaled ? padded(c) * t.adjoint_scale(i, j, k, c) : padded(c);
      });
}

}  // namespace detail

template <class ExecSpace>
struct Migration<ExecSpace>::Impl {
  using Memory = typename ExecSpace::memory_space;
  using Floats = Kokkos::View<float*, Memory>;
  MigrationPlan plan;
  wave::Simulation<ExecSpace> source, receiver;
  Floats image, illumination;
  bool lit = true;  // whether the shots sum the illumination (Migration::clear)
  // The current segment's source wavefields (adjoint: Born weights), one per image; with the density image, the
  // source wavefields beside the Born weights, and that image (over the halo within R too: density_terms.hpp); in
  // an anisotropic medium the adjoint's Born weights of r beside p's (snapshots_r).
  std::vector<Floats> snapshots, snapshots_r, fields;
  Floats density_image;
  // The receiver side's terms: the image its next step carries (correlation) or the adjoint's transposed PML with
  // it; the source side's Born weights (adjoint).
  detail::CarriedImage<Memory> carried;
  std::optional<detail::AdjointLayer<ExecSpace>> layer;
  detail::BornWeight<ExecSpace> born_weight;
  detail::StepTerms<Memory> terms;             // the step's q and layer coefficients, which scale the adjoint's image
  detail::DensityTerms<Memory> density_terms;  // and the density's weights, for its image
  long long source_steps = 0, images = 0, states_moved = 0;  // for MigrationTiming::bytes
  double copy_gb_per_s = 0, forward_seconds = 0;
  std::optional<std::vector<wave::Point>> shot_receivers;  // the shot whose forward pass awaits its backward pass
  // An anisotropic medium (TTI step) with source zones: the model, whose shots' sources move its zones on both sides
  // (the receiver side steps the source side's step, or the adjoint its transpose), without the axis (the zones read
  // the velocity, epsilon and delta), and the current shot.
  bool tti = false;
  std::optional<wave::Setup> medium;
  wave::Acquisition shot;
  std::optional<wave::SourceZones> zones;  // of `shot`'s sources in `medium`

  int steps() const { return source.setup().steps; }

  Impl(const wave::Setup& model, const MigrationPlan& p)
      : plan(p),
        source(detail::simulation_setup(model, false)),
        receiver(detail::simulation_setup(model, true)),
        image("seis::imaging::stack", source.layout().size),
        illumination("seis::imaging::illumination", source.layout().size),
        terms(source.step_fields()),
        density_terms(terms, model.radius, model.h),
        tti(wave::tti_medium(model)) {
    // The exact adjoint's receiver side steps the transpose: the TTI step's, whose damping is in it, or the others'
    // with the driver's layer term. The correlation's receiver wavefield is the step's own, its data injected as
    // sources are (into both fields of the TTI step): the transpose's nu_p is the adjoint of p alone, which where the
    // medium is isotropic holds the horizontal Laplacian's share of the wave, an angle filter (it moved a dipping
    // reflector's image 11 m up where the step's own wavefield images it at its depth, perf/NOTES.md 152).
    if (tti && model.anisotropy.source_zone != 0) {
      medium = model;
      medium->anisotropy.tilt = medium->anisotropy.azimuth = {};
      zones.emplace(wave::SourceZones{*medium, shot});
    }
    if (tti && adjoint())
      receiver.transpose_step(true);
    else if (adjoint())
      layer.emplace(receiver.layout(), receiver.pml());
    const auto buffers = [&](std::vector<Floats>& kept, const char* name) {
      for (int n = 0; n < p.snapshots; ++n)
        kept.emplace_back(Kokkos::view_alloc(std::string(name), Kokkos::WithoutInitializing), source.layout().size);
    };
    buffers(snapshots, "seis::imaging::source wavefield");
    if (tti && adjoint()) buffers(snapshots_r, "seis::imaging::Born weight of r");
    if (!p.density_image) return;
    for (int n = 0; n < p.snapshots; ++n)
      fields.emplace_back(Kokkos::view_alloc(std::string("seis::imaging::u_n"), Kokkos::WithoutInitializing),
                          source.layout().size);
    density_image = Floats("seis::imaging::density image", source.layout().size);
  }

  bool adjoint() const { return plan.condition == ImagingCondition::adjoint; }

  // The segment from `start`: the source wavefield at each imaging step n kept (the simulation is at `start`), or
  // for the adjoint the Born weight of step n, from u_{n-1} kept, u_n and u_{n+1} (zero for the last step, whose
  // weight meets lambda_N = 0).
  void fill(int start) {
    const int end = std::min(steps(), start + plan.segment);
    for (int n = start, j = 0; n < end; n += plan.interval, ++j) {
      source_steps += n - source.step();
      source.advance(n - source.step());
      Floats& kept = snapshots[std::size_t(j)];
      if (plan.density_image) Kokkos::deep_copy(fields[std::size_t(j)], source.field());
      if (!adjoint()) {
        Kokkos::deep_copy(kept, source.field());
        continue;
      }
      if (tti) born_weight.weight_r = snapshots_r[std::size_t(j)];
      if (n + 1 < steps()) {
        born_weight.weight = kept;
        source.advance(1, born_weight);
        ++source_steps;
      } else {
        Kokkos::deep_copy(kept, 0.0f);
        if (tti) Kokkos::deep_copy(born_weight.weight_r, 0.0f);
      }
    }
  }

  // The receiver wavefield to step `target` (adjoint: each step with the transposed layer's terms; TTI: the step, or
  // the adjoint's transpose, with no term); its first step carries the image armed by image_step.
  void advance_receiver(int target) {
    if (tti) return receiver.advance(target - receiver.step());
    if (adjoint()) return receiver.advance(target - receiver.step(), *layer);
    receiver.advance(target - receiver.step(), carried);
  }

  // The image of `kept` and the receiver wavefield now (adjoint: in mu or nu, scaled as it is read out), and kept's
  // illumination: added by the receiver's next step, or for a shot's last image (n = 0), which no step follows, and
  // in the TTI step, which carries none, by a pass of its own (the adjoint's over both fields). The density image's
  // term (from image `j`'s source wavefield) by a pass of its own.
  void image_step(int n, int j) {
    const Floats& kept = snapshots[std::size_t(j)];
    const Floats summed = lit ? illumination : Floats();
    if (plan.density_image)
      detail::image_density<ExecSpace>(density_terms, density_image,
                                       Kokkos::View<const float*, Memory>(fields[std::size_t(j)]), receiver.field());
    if (tti && adjoint())
      return detail::correlate<ExecSpace>(image, summed, kept, receiver.field(), snapshots_r[std::size_t(j)],
                                          Kokkos::View<const float*, Memory>(receiver.step_fields().r));
    if (n == 0 || tti) return detail::correlate<ExecSpace>(image, summed, kept, receiver.field());
    const wave::ImageTerm term{kept.data(), image.data(), summed.data()};
    if (adjoint())
      layer->arm(term);
    else
      carried.arm(term);
  }

  // Everything checked before the first step: positions, the wavelet against dt; then the source wavefield forward,
  // a state kept at each segment's start and the last segment's wavefields kept at once, recording at `receivers`
  // where `record` (the receivers are then the backward pass's).
  void run_forward(const std::vector<wave::Point>& sources, wave::WaveletKind wavelet, double f0,
                   const std::vector<wave::Point>& receivers, bool record) {
    const wave::Setup& model = source.setup();
    wave::validate_shot(model, {sources, receivers, wavelet, f0}, model.dt);
    if (adjoint()) require_inner_receivers(model, receivers);
    shot = {sources, record ? receivers : std::vector<wave::Point>{}, wavelet, f0};
    source.new_shot(shot, shot_zones());
    // Nothing armed from an earlier shot.
    carried.arm({});
    if (layer) layer->clear(), layer->arm({});
    source_steps = images = states_moved = 0;
    Kokkos::Timer timer;
    source.drop_kept();
    {
      const ProfilingRegion forward("seis::imaging::forward");
      for (int start = 0; start < steps(); start += plan.segment) {
        if (start + plan.segment < steps()) {
          source.keep();
          source.advance(plan.segment);
          source_steps += plan.segment;
          ++states_moved;
        } else {
          fill(start);
        }
      }
      Kokkos::fence();
    }
    forward_seconds = timer.seconds();
    shot_receivers = receivers;
  }

  const wave::SourceZones* shot_zones() const { return zones ? &*zones : nullptr; }

  void check_injected(const std::vector<wave::Point>& receivers, const std::vector<float>& injected) const {
    require(injected.size() == receivers.size() * std::size_t(steps()), "the injected traces hold ", injected.size(),
            " samples, ", receivers.size(), " receivers x ", steps(), " steps need ",
            receivers.size() * std::size_t(steps()));
  }

  // The interior of a padded field, gathered on the device (into a source-side buffer: free between shots, and
  // counted in the plan) and copied once. `adjoint_scaled`: the exact adjoint's image, sum_n w_n lambda_(n+1) =
  // (sum_n w_n mu_(n+1)) / (D3 q rho), from the stack of w mu (D3 q rho does not change with time).
  std::vector<float> interior(const Floats& padded, bool adjoint_scaled) const {
    const FieldLayout& L = source.layout();
    const Floats out = snapshots.front();
    detail::gather_interior<ExecSpace>(terms, padded, out, adjoint_scaled);
    std::vector<float> values(std::size_t(L.nx) * std::size_t(L.ny) * std::size_t(L.nz));
    Kokkos::deep_copy(
        Kokkos::View<float*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(values.data(), values.size()),
        Kokkos::subview(out, std::make_pair(std::size_t(0), values.size())));
    return values;
  }
};

template <class ExecSpace>
Migration<ExecSpace>::Migration(const wave::Setup& model, const MigrationOptions& options,
                                std::size_t available_bytes) {
  wave::validate(model, available_bytes);
  const MigrationPlan plan = plan_migration(model, options, available_bytes);
  impl_ = std::make_unique<Impl>(model, plan);
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Impl::Memory>::accessible;
  impl_->copy_gb_per_s =
      impl_->source.copy_bandwidth(10, wave::copy_yardstick(model, wave::whole_grid(model), host).bytes);
  Kokkos::fence();
}

template <class ExecSpace>
Migration<ExecSpace>::~Migration() = default;

template <class ExecSpace>
MigrationTiming Migration<ExecSpace>::migrate(const std::vector<wave::Point>& sources, wave::WaveletKind wavelet,
                                              double f0, const std::vector<wave::Point>& receivers,
                                              const std::vector<float>& injected) {
  impl_->check_injected(receivers, injected);  // before the forward pass
  impl_->run_forward(sources, wavelet, f0, receivers, false);
  return backward(injected);
}

template <class ExecSpace>
std::vector<float> Migration<ExecSpace>::forward(const std::vector<wave::Point>& sources, wave::WaveletKind wavelet,
                                                 double f0, const std::vector<wave::Point>& receivers) {
  Impl& m = *impl_;
  m.run_forward(sources, wavelet, f0, receivers, true);
  // The last sample: a migration stops the source wavefield a step short of it (that step's image meets a zero
  // adjoint field, or no receiver step); the step is past every kept state.
  m.source.advance(m.steps() - m.source.step());
  return m.source.traces();
}

template <class ExecSpace>
MigrationTiming Migration<ExecSpace>::backward(const std::vector<float>& injected) {
  Impl& m = *impl_;
  const MigrationPlan& p = m.plan;
  require(m.shot_receivers.has_value(), "a migration's backward pass follows its forward pass (Migration::forward)");
  const std::vector<wave::Point> receivers = *m.shot_receivers;
  m.shot_receivers.reset();
  m.check_injected(receivers, injected);
  MigrationTiming timing;
  timing.steps = m.steps();
  timing.forward_seconds = m.forward_seconds;
  const wave::Injected as = m.adjoint() ? wave::Injected::adjoint_data : wave::Injected::sources;
  m.receiver.new_shot(receivers, injected, {}, as, m.shot_zones());
  Kokkos::Timer timer;
  // Backward: segments last first; within each, the receiver wavefield at step N - n meets the source's at n
  // (receiver step m holds the data of samples N - 1 ... N - m injected, time N - m); the adjoint's Born weight of
  // step n meets lambda_{n + 1}, the receiver wavefield at step N - n - 1.
  {
    const ProfilingRegion backward("seis::imaging::backward");
    for (int segment = p.states; segment >= 0; --segment) {
      const int start = segment * p.segment;
      if (segment < p.states) {
        // The later segment's last image (its start, n > 0) is armed, and its kept field is about to be refilled:
        // the receiver's next step, due anyway, adds it now.
        m.advance_receiver(m.receiver.step() + 1);
        const ProfilingRegion refill("seis::imaging::refill");
        m.source.return_to(segment);
        ++m.states_moved;
        m.fill(start);
      }
      const int last = std::min(m.steps() - 1, start + p.segment - 1);
      for (int n = start + (last - start) / p.interval * p.interval; n >= start; n -= p.interval) {
        m.advance_receiver(m.steps() - n - (m.adjoint() ? 1 : 0));
        ++m.images;
        const ProfilingRegion condition("seis::imaging::condition");
        m.image_step(n, (n - start) / p.interval);
      }
    }
    Kokkos::fence();
  }
  m.source.drop_kept();
  timing.backward_seconds = timer.seconds();
  const double points = double(m.source.layout().size);
  // An image: the source side kept (u copied, 8 bytes a point; the adjoint's Born weight written by the step's
  // kernels, 4, or u_{n-1} copied, then the weight from three fields and q, one written), the receiver's step adding it
  // (kept, image and illumination read, two written). The adjoint's layer terms: 32 bytes a point near a face, phi
  // cleared every receiver step. In an anisotropic medium the image is a pass of its own (kept, receiver field, image
  // and illumination read, two written: 24 bytes), the adjoint's over both fields (32 bytes, and the source side's
  // weights of r too: 28). The illumination's 8 bytes of those only where it is summed.
  const double image_bytes = (m.tti ? (m.adjoint() ? 2.0 * (8.0 + 20.0) + 32.0 : 8.0 + 24.0)
                                    : (m.adjoint() ? (m.source.step_fields().carries_weight ? 4.0 : 8.0 + 20.0) : 8.0) +
                                          20.0 + (m.plan.density_image ? 8.0 + 20.0 : 0.0)) -
                             (m.lit ? 0.0 : 8.0);
  const double layer_bytes = m.layer ? 32.0 * double(m.layer->points()) + 4.0 * double(m.receiver.pml().stored()) : 0.0;
  timing.bytes = double(m.source_steps) * m.source.bytes_per_step() +
                 double(m.steps()) * (m.receiver.bytes_per_step() + layer_bytes) +
                 double(m.images) * image_bytes * points + 2.0 * double(m.states_moved) * double(m.source.kept_bytes());
  return timing;
}

template <class ExecSpace>
void Migration<ExecSpace>::set_model(const wave::Setup& model) {
  Impl& m = *impl_;
  // Neither simulation reads a model's shot: the model itself, not a copy of it without one (0.54 GB a field at
  // 512^3, 0.2 s each), but where the receiver side steps another kernel than the model's.
  m.source.set_model(model);
  if (m.tti) m.medium = model;
  if (m.receiver.setup().shape == model.shape)
    m.receiver.set_model(model);
  else
    m.receiver.set_model(detail::simulation_setup(model, true));
  m.terms = detail::StepTerms<typename Impl::Memory>(m.source.step_fields());
  m.density_terms = detail::DensityTerms<typename Impl::Memory>(m.terms, model.radius, model.h);
}

template <class ExecSpace>
std::vector<float> Migration<ExecSpace>::image() const {
  return impl_->interior(impl_->image, impl_->adjoint());
}

template <class ExecSpace>
std::vector<float> Migration<ExecSpace>::density_image() const {
  const Impl& m = *impl_;
  require(m.plan.density_image, "the migration was not asked for the density image (MigrationOptions::density_image)");
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.density_image);
  return wave::fold_extended(m.source.setup(), m.source.layout(), host.data(), m.source.setup().radius);
}

template <class ExecSpace>
std::vector<float> Migration<ExecSpace>::illumination() const {
  require(impl_->lit, "the migration's stack was started without its illumination (Migration::clear(false))");
  return impl_->interior(impl_->illumination, false);
}

template <class ExecSpace>
void Migration<ExecSpace>::clear(bool illumination) {
  impl_->lit = illumination;
  Kokkos::deep_copy(impl_->image, 0.0f);
  if (illumination) Kokkos::deep_copy(impl_->illumination, 0.0f);
  if (impl_->plan.density_image) Kokkos::deep_copy(impl_->density_image, 0.0f);
}

template <class ExecSpace>
double Migration<ExecSpace>::copy_gb_per_s() const {
  return impl_->copy_gb_per_s;
}

template <class ExecSpace>
const MigrationPlan& Migration<ExecSpace>::plan() const {
  return impl_->plan;
}

}  // namespace seis::imaging

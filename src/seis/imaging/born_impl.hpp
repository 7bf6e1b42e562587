#pragma once
// Born<ExecSpace>'s definition, instantiated once per backend (instantiate_born.cpp.in).
#include <Kokkos_Core.hpp>
#include <string>

#include "seis/core/error.hpp"
#include "seis/core/profiling_region.hpp"
#include "seis/imaging/born.hpp"
#include "seis/imaging/density_terms.hpp"
#include "seis/imaging/step_terms.hpp"
#include "seis/wave/density_field.hpp"
#include "seis/wave/simulation.hpp"

namespace seis::imaging {

namespace detail {

// du += dq (u_{n+1} - D1 u_n + D2 u_{n-1}) / q over the interior.
template <class ExecSpace, class Memory>
void scatter(const StepTerms<Memory>& t, const Kokkos::View<float*, Memory>& du, const Kokkos::View<float*, Memory>& dq,
             const Kokkos::View<const float*, Memory>& next, const Kokkos::View<const float*, Memory>& now,
             const Kokkos::View<float*, Memory>& before) {
  Kokkos::parallel_for(
      "seis::imaging::scatter", interior<ExecSpace>(t), KOKKOS_LAMBDA(const int i, const int j, const int k) {
        const index_t c = t.layout.offset(i, j, k);
        du(c) += dq(c) * t.born_weight(i, j, k, c, next(c), now(c), before(c));
      });
  ExecSpace().fence();  // the simulations step on their own instances
}

// Born modelling's terms: the background's step keeps u_{n-1} before it and shows u_n and u_{n+1} after it (and
// the TTI step's r beside u); the scattered wavefield's step then gets dq times the background's Born weight added,
// field by field.
template <class ExecSpace>
struct BackgroundSteps : wave::StepTerm<typename ExecSpace::memory_space> {
  using Memory = typename ExecSpace::memory_space;
  Kokkos::View<float*, Memory> previous[2];  // u_{n-1}, r_{n-1}
  Kokkos::View<const float*, Memory> next[2], now[2];
  StepTerms<Memory> terms;

  void before(const wave::StepFields<Memory>& f) override {
    Kokkos::deep_copy(previous[0], f.u_prev);
    if (f.r_prev.data() != nullptr) Kokkos::deep_copy(previous[1], f.r_prev);
  }
  void after(const wave::StepFields<Memory>& f) override {
    next[0] = f.u, now[0] = f.u_prev;
    next[1] = f.r, now[1] = f.r_prev;
    terms = StepTerms<Memory>(f);
  }
  bool steps_both_fields() const override { return true; }
};

template <class ExecSpace>
struct Scattering : wave::StepTerm<typename ExecSpace::memory_space> {
  using Memory = typename ExecSpace::memory_space;
  const BackgroundSteps<ExecSpace>* background = nullptr;
  Kokkos::View<float*, Memory> dq;
  Kokkos::View<const float*, Memory> drho;  // the density's change extended over the halo, or none
  DensityTerms<Memory> density;             // the background's (its q, damping and density do not change)

  void after(const wave::StepFields<Memory>& f) override {
    const BackgroundSteps<ExecSpace>& b = *background;
    scatter<ExecSpace, Memory>(b.terms, f.u, dq, b.next[0], b.now[0], b.previous[0]);
    if (b.terms.tti) scatter<ExecSpace, Memory>(b.terms, f.r, dq, b.next[1], b.now[1], b.previous[1]);
    if (drho.data() != nullptr) scatter_density<ExecSpace, Memory>(density, f.u, drho, b.now[0]);
  }
  bool steps_both_fields() const override { return true; }
};

}  // namespace detail

template <class ExecSpace>
struct Born<ExecSpace>::Impl {
  using Memory = typename ExecSpace::memory_space;
  using Floats = Kokkos::View<float*, Memory>;
  wave::Simulation<ExecSpace> background, scattered;
  detail::BackgroundSteps<ExecSpace> background_steps;
  detail::Scattering<ExecSpace> scattering;
  double copy_gb_per_s = 0;

  static wave::Setup background_setup(const wave::Setup& s) {
    wave::Setup b = one_step_setup(s);
    b.receivers.clear();
    return b;
  }
  // The scattered wavefield steps in the background's medium, which in an anisotropic one has zones around the
  // background's sources (wave/source_zone.hpp): its setup keeps them, and its shots fire nothing from them.
  static wave::Setup scattered_setup(const wave::Setup& s) {
    wave::Setup b = one_step_setup(s);
    if (!wave::tti_medium(s)) b.sources.clear();
    return b;
  }

  explicit Impl(const wave::Setup& s) : background(background_setup(s)), scattered(scattered_setup(s)) {
    for (int f = 0; f < wave::wavefield_count(s); ++f)
      background_steps.previous[f] =
          Floats(Kokkos::view_alloc(std::string("seis::imaging::background before"), Kokkos::WithoutInitializing),
                 background.layout().size);
    scattering.background = &background_steps;
    scattering.dq = Floats("seis::imaging::dq", background.layout().size);
    scattering.density =
        detail::DensityTerms<Memory>(detail::StepTerms<Memory>(background.step_fields()), s.radius, s.h);
  }
};

template <class ExecSpace>
Born<ExecSpace>::Born(const wave::Setup& background, std::size_t available_bytes) {
  wave::validate(background, available_bytes);
  require_born_memory(background, available_bytes);
  impl_ = std::make_unique<Impl>(background);
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Impl::Memory>::accessible;
  impl_->copy_gb_per_s =
      impl_->background.copy_bandwidth(10, wave::copy_yardstick(background, wave::whole_grid(background), host).bytes);
  Kokkos::fence();
}

template <class ExecSpace>
double Born<ExecSpace>::copy_gb_per_s() const {
  return impl_->copy_gb_per_s;
}

template <class ExecSpace>
Born<ExecSpace>::~Born() = default;

template <class ExecSpace>
std::vector<float> Born<ExecSpace>::model(const std::vector<float>& dq, BornTiming* timing) {
  return model(dq, {}, timing);
}

template <class ExecSpace>
std::vector<float> Born<ExecSpace>::model(const std::vector<float>& dq, const std::vector<float>& drho,
                                          BornTiming* timing) {
  Impl& m = *impl_;
  const wave::Setup& s = m.scattered.setup();
  const FieldLayout& L = m.background.layout();
  require(dq.size() == L.interior_points(), "dq has ", dq.size(), " values, the ", L.nx, "x", L.ny, "x", L.nz, " grid ",
          L.interior_points());
  require(drho.empty() || wave::variable_density(s),
          "a change of the density needs a density that varies (the density form of the step)");
  require(drho.empty() || drho.size() == L.interior_points(), "drho has ", drho.size(), " values, the ", L.nx, "x",
          L.ny, "x", L.nz, " grid ", L.interior_points());
  // The extended field lives for this call alone: Born's memory (born_bytes) counts it.
  Field<typename Impl::Memory> extended;
  if (!drho.empty())
    extended =
        wave::extended_field<typename Impl::Memory>(s, wave::whole_grid(s), L, drho, 0.0f, "seis::imaging::drho");
  m.scattering.drho = extended.span();
  {
    const auto host = Kokkos::create_mirror_view(m.scattering.dq);
    Kokkos::deep_copy(host, 0.0f);
    std::size_t p = 0;
    for (int k = 0; k < L.nz; ++k)
      for (int j = 0; j < L.ny; ++j)
        for (int i = 0; i < L.nx; ++i) host(std::size_t(L.offset(i, j, k))) = dq[p++];
    Kokkos::deep_copy(m.scattering.dq, host);
  }
  const wave::Setup& b = m.background.setup();
  m.background.new_shot(wave::Acquisition{b.sources, {}, b.wavelet, b.f0});
  if (s.sources.empty())
    m.scattered.new_shot(wave::Acquisition{{}, s.receivers, s.wavelet, s.f0});
  else
    m.scattered.new_shot(s.sources, std::vector<float>(s.sources.size() * std::size_t(s.steps), 0.0f), s.receivers);
  const ProfilingRegion modelling("seis::imaging::born");
  Kokkos::Timer timer;
  for (int n = 0; n < s.steps; ++n) {
    m.background.advance(1, m.background_steps);
    m.scattered.advance(1, m.scattering);
  }
  Kokkos::fence();
  if (timing != nullptr) {
    timing->seconds = timer.seconds();
    timing->steps = s.steps;
    // Born's own bytes a point: u_{n-1} kept (8) and each field's scattering (28); 24 more for the density's.
    const double own = 36.0 * wave::wavefield_count(s) + (drho.empty() ? 0.0 : 24.0);
    timing->bytes =
        double(s.steps) * (m.background.bytes_per_step() + m.scattered.bytes_per_step() + own * L.interior_points());
  }
  m.scattering.drho = {};
  return m.scattered.traces();
}

}  // namespace seis::imaging

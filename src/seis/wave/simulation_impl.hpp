#pragma once
// Definitions of simulation.hpp, included once per backend by a generated translation unit.
#include <algorithm>
#include <map>
#include <string>

#include "seis/core/coefficients.hpp"
#include "seis/core/compat.hpp"
#include "seis/kernels/copy.hpp"
#include "seis/kernels/radius_dispatch.hpp"
#include "seis/kernels/tile_engine.hpp"
#include "seis/wave/simulation.hpp"
#include "seis/wave/update.hpp"

namespace seis::wave {

// The Laplacian of the step comes from the fused xyz tile engine (xyz_fused's configuration), 128-bit accesses.
inline constexpr int wave_vec = 4;
using WaveSources = Sources<Operator::laplacian, YSource::scratch, ZSource::window>;

// 256-thread teams, two per SM up to R = 4 (at most 128 registers): without the bound the PML and unified kernels
// take 162 registers at R = 4 and an SM holds one team (perf/NOTES.md).
struct WaveOccupancy {
  static constexpr int max_threads = 256;
  static constexpr int min_teams(int radius) { return radius <= 4 ? 2 : 1; }
};

template <class ExecSpace>
using WaveLauncher = TileKernelLauncher<ExecSpace, WaveSources, WaveOccupancy>;

template <class ExecSpace>
struct Simulation<ExecSpace>::Impl {
  using Memory = typename ExecSpace::memory_space;
  using Floats = Kokkos::View<float*, Memory>;
  Field<Memory> u, u_prev, q;
  Floats phi, eta_x, eta_y, eta_z, amplitude, traces, source_weight, receiver_weight;
  Kokkos::View<index_t*, Memory> source_offset, receiver_offset;
  int source_points = 0;
  StencilCoefficients coefficients;
  compat::Instances<ExecSpace> instances{1 + slab_count};
  WaveLauncher<ExecSpace> launcher{TileShape{32, 8, 32}};

  WaveArrays arrays(const Setup& s, const PmlGeometry& pml) const {
    const float h = static_cast<float>(s.h);
    const float inv = 1.0f / (4.0f * h * h);
    return {u_prev.data(), q.data(), phi.data(), eta_x.data() + 1, eta_y.data() + 1, eta_z.data() + 1, pml, inv,
            inv,           inv,      true};
  }
};

namespace {

template <class Memory>
Kokkos::View<float*, Memory> to_device(const std::string& label, const std::vector<float>& host) {
  Kokkos::View<float*, Memory> view(label, std::max<std::size_t>(host.size(), 1));
  if (!host.empty()) {
    Kokkos::View<const float*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> source(host.data(),
                                                                                                  host.size());
    Kokkos::deep_copy(Kokkos::subview(view, std::make_pair(std::size_t(0), host.size())), source);
  }
  return view;
}

template <class Memory>
Kokkos::View<index_t*, Memory> offsets_to_device(const std::string& label, const std::vector<index_t>& host) {
  Kokkos::View<index_t*, Memory> view(label, std::max<std::size_t>(host.size(), 1));
  auto mirror = Kokkos::create_mirror_view(view);
  for (std::size_t n = 0; n < host.size(); ++n) mirror(n) = host[n];
  Kokkos::deep_copy(view, mirror);
  return view;
}

// Launch options of one box set: x slabs are ndamp points wide, so on GPUs they get narrow, tall tiles unless the
// user chose a tile.
template <class ExecSpace>
LaunchOptions slab_options(const LaunchOptions& o, int slab) {
  LaunchOptions out = o;
  out.nontemporal = true;
  if (is_gpu_space<ExecSpace>() && (slab == x_low || slab == x_high) && o.tile_x == 0 && o.tile_y == 0) {
    out.tile_x = 8;
    out.tile_y = 32;
  }
  return out;
}

}  // namespace

template <class ExecSpace>
Simulation<ExecSpace>::Simulation(const Setup& setup) : setup_(setup) {
  validate(setup_, compat::available_memory_bytes());
  layout_ = make_layout(setup_.nx, setup_.ny, setup_.nz, setup_.radius);
  pml_ = make_pml_geometry(layout_, setup_.boundary == Boundary::pml ? setup_.ndamp : 0);
  with_radius(setup_.radius, [&](auto r) {
    constexpr int R = decltype(r)::value;
    WaveLauncher<ExecSpace> launcher{TileShape{32, 8, 32}};
    launcher.template check<R, wave_vec>("wave step", layout_, setup_.launch, UnifiedUpdate{});
    launcher.template check<R, wave_vec>("wave step (x slabs)", layout_, slab_options<ExecSpace>(setup_.launch, x_low),
                                         PmlUpdate{});
  });

  impl_ = std::make_unique<Impl>();
  Impl& m = *impl_;
  m.coefficients = make_coefficients(setup_.radius, setup_.h, setup_.h, setup_.h);
  m.u = Field<memory_space>("seis::wave::u", layout_);
  m.u_prev = Field<memory_space>("seis::wave::u_prev", layout_);
  m.q = Field<memory_space>("seis::wave::q", layout_);
  Kokkos::deep_copy(m.u.span(), 0.0f);
  Kokkos::deep_copy(m.u_prev.span(), 0.0f);

  {
    Field<Kokkos::HostSpace> q_host("seis::wave::q host", layout_);
    Kokkos::deep_copy(q_host.span(), 0.0f);
    const double dt2 = setup_.dt * setup_.dt;
    for (int k = 0; k < setup_.nz; ++k)
      for (int j = 0; j < setup_.ny; ++j)
        for (int i = 0; i < setup_.nx; ++i) {
          const double v = setup_.velocity[(std::size_t(k) * setup_.ny + j) * setup_.nx + i];
          q_host.data()[layout_.offset(i, j, k)] = static_cast<float>(v * v * dt2);
        }
    deep_copy(m.q, q_host);
  }

  m.phi = typename Impl::Floats("seis::wave::phi", std::max<std::size_t>(pml_.points(), 1));
  const float vmax = *std::max_element(setup_.velocity.begin(), setup_.velocity.end());
  const double scale = damping_scale(setup_.dt, vmax, pml_.thickness, setup_.h);
  m.eta_x = to_device<memory_space>("seis::wave::eta_x", damping_profile(setup_.nx, pml_.thickness, scale));
  m.eta_y = to_device<memory_space>("seis::wave::eta_y", damping_profile(setup_.ny, pml_.thickness, scale));
  m.eta_z = to_device<memory_space>("seis::wave::eta_z", damping_profile(setup_.nz, pml_.thickness, scale));

  // Sources: the discrete delta of a point source is 1/h^3 at a grid point; off-grid positions spread it with the
  // trilinear weights. Weights of points shared by several sources are summed here, so the injection needs no
  // atomics and every run adds in the same order (restarts are bitwise).
  std::map<index_t, double> source_points;
  for (const Point& p : setup_.sources) {
    const Stencil8 st = trilinear(setup_, p);
    for (int c = 0; c < 8; ++c)
      if (st.w[c] != 0) source_points[layout_.offset(st.i[c], st.j[c], st.k[c])] += st.w[c];
  }
  std::vector<index_t> offsets;
  std::vector<float> weights;
  const double inv_h3 = 1.0 / (setup_.h * setup_.h * setup_.h);
  for (const auto& [offset, weight] : source_points) {
    offsets.push_back(offset);
    weights.push_back(static_cast<float>(weight * inv_h3));
  }
  m.source_points = static_cast<int>(offsets.size());
  m.source_offset = offsets_to_device<memory_space>("seis::wave::source_offset", offsets);
  m.source_weight = to_device<memory_space>("seis::wave::source_weight", weights);
  std::vector<float> amplitude(std::size_t(std::max(setup_.steps, 1)));
  for (int n = 0; n < setup_.steps; ++n)
    amplitude[std::size_t(n)] = static_cast<float>(wavelet(setup_.wavelet, setup_.f0, n * setup_.dt));
  m.amplitude = to_device<memory_space>("seis::wave::amplitude", amplitude);

  offsets.clear();
  weights.clear();
  for (const Point& p : setup_.receivers) {
    const Stencil8 st = trilinear(setup_, p);
    for (int c = 0; c < 8; ++c) {
      offsets.push_back(layout_.offset(st.i[c], st.j[c], st.k[c]));
      weights.push_back(static_cast<float>(st.w[c]));
    }
  }
  m.receiver_offset = offsets_to_device<memory_space>("seis::wave::receiver_offset", offsets);
  m.receiver_weight = to_device<memory_space>("seis::wave::receiver_weight", weights);
  m.traces = typename Impl::Floats("seis::wave::traces",
                                   std::max<std::size_t>(setup_.receivers.size() * std::size_t(setup_.steps), 1));
  Kokkos::fence();
}

template <class ExecSpace>
Simulation<ExecSpace>::~Simulation() = default;

template <class ExecSpace>
void Simulation<ExecSpace>::advance(int steps) {
  Impl& m = *impl_;
  const int last = std::min(setup_.steps, step_ + std::max(steps, 0));
  const ExecSpace& main = m.instances[0];
  const int receivers = static_cast<int>(setup_.receivers.size());
  const int sources = m.source_points;
  for (; step_ < last; ++step_) {
    const int n = step_;
    const int samples = setup_.steps;
    {
      const auto traces = m.traces;
      const auto offset = m.receiver_offset;
      const auto weight = m.receiver_weight;
      const float* u = m.u.data();
      Kokkos::parallel_for(
          "seis::wave::record", Kokkos::RangePolicy<ExecSpace>(main, 0, receivers), KOKKOS_LAMBDA(const int r) {
            float sum = 0;
            for (int c = 0; c < 8; ++c) sum += weight(8 * r + c) * u[offset(8 * r + c)];
            traces(std::size_t(r) * samples + n) = sum;
          });
    }
    const WaveArrays a = m.arrays(setup_, pml_);
    with_radius(setup_.radius, [&](auto r) {
      constexpr int R = decltype(r)::value;
      const Box all = interior_box(layout_);
      const LaunchOptions inner_options = slab_options<ExecSpace>(setup_.launch, -1);
      switch (setup_.strategy) {
        case Strategy::unified:
          m.launcher.template launch_boxes<R, wave_vec>(main, m.u.data(), layout_, m.coefficients, inner_options, &all,
                                                        1, UnifiedUpdate{a});
          break;
        case Strategy::two:
          m.launcher.template launch_boxes<R, wave_vec>(main, m.u.data(), layout_, m.coefficients, inner_options,
                                                        &pml_.inner, 1, InnerUpdate{a});
          if (pml_.thickness > 0)
            m.launcher.template launch_boxes<R, wave_vec>(main, m.u.data(), layout_, m.coefficients, inner_options,
                                                          pml_.slab, slab_count, PmlUpdate{a});
          break;
        case Strategy::seven:
          // The slab kernels read what the previous step's kernels on `main` wrote; the next step's on `main` read
          // what the slabs write: device-side dependencies, no host fence.
          m.instances.fork();
          m.launcher.template launch_boxes<R, wave_vec>(main, m.u.data(), layout_, m.coefficients, inner_options,
                                                        &pml_.inner, 1, InnerUpdate{a});
          if (pml_.thickness > 0)
            for (int s = 0; s < slab_count; ++s)
              m.launcher.template launch_boxes<R, wave_vec>(m.instances[1 + s], m.u.data(), layout_, m.coefficients,
                                                            slab_options<ExecSpace>(setup_.launch, s), &pml_.slab[s], 1,
                                                            PmlUpdate{a});
          m.instances.join();
          break;
      }
    });
    compat::check_last_launch("wave step");
    {
      const auto offset = m.source_offset;
      const auto weight = m.source_weight;
      const auto amplitude = m.amplitude;
      const float* q = m.q.data();
      float* next = m.u_prev.data();
      Kokkos::parallel_for(
          "seis::wave::inject", Kokkos::RangePolicy<ExecSpace>(main, 0, sources),
          KOKKOS_LAMBDA(const int p) { next[offset(p)] += weight(p) * q[offset(p)] * amplitude(n); });
    }
    std::swap(m.u, m.u_prev);
  }
  main.fence();
}

template <class ExecSpace>
State Simulation<ExecSpace>::state() const {
  const Impl& m = *impl_;
  State s;
  s.step = step_;
  auto copy = [](std::vector<float>& out, const auto& view, std::size_t count) {
    out.resize(count);
    Kokkos::View<float*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> target(out.data(), count);
    Kokkos::deep_copy(target, Kokkos::subview(view, std::make_pair(std::size_t(0), count)));
  };
  copy(s.u, m.u.span(), layout_.size);
  copy(s.u_prev, m.u_prev.span(), layout_.size);
  copy(s.phi, m.phi, pml_.points());
  copy(s.traces, m.traces, setup_.receivers.size() * std::size_t(setup_.steps));
  return s;
}

template <class ExecSpace>
void Simulation<ExecSpace>::restore(const State& s) {
  Impl& m = *impl_;
  const std::size_t traces = setup_.receivers.size() * std::size_t(setup_.steps);
  require(s.step >= 0 && s.step <= setup_.steps, "checkpoint step ", s.step, " is outside this run's 0..",
          setup_.steps);
  require(s.u.size() == layout_.size && s.u_prev.size() == layout_.size, "checkpoint fields hold ", s.u.size(),
          " floats, this run's layout ", layout_.size);
  require(s.phi.size() == pml_.points(), "checkpoint PML holds ", s.phi.size(), " floats, this run's ", pml_.points());
  require(s.traces.size() == traces, "checkpoint traces hold ", s.traces.size(), " samples, this run's ", traces);
  auto copy = [](const auto& view, const std::vector<float>& in) {
    Kokkos::View<const float*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> source(in.data(), in.size());
    Kokkos::deep_copy(Kokkos::subview(view, std::make_pair(std::size_t(0), in.size())), source);
  };
  copy(m.u.span(), s.u);
  copy(m.u_prev.span(), s.u_prev);
  copy(m.phi, s.phi);
  copy(m.traces, s.traces);
  step_ = s.step;
  Kokkos::fence();
}

template <class ExecSpace>
std::vector<float> Simulation<ExecSpace>::traces() const {
  const State s = state();
  std::vector<float> out(setup_.receivers.size() * std::size_t(step_));
  for (std::size_t r = 0; r < setup_.receivers.size(); ++r)
    std::copy_n(s.traces.begin() + std::ptrdiff_t(r * setup_.steps), step_, out.begin() + std::ptrdiff_t(r * step_));
  return out;
}

template <class ExecSpace>
std::vector<float> Simulation<ExecSpace>::wavefield(bool previous) const {
  const Field<Kokkos::HostSpace> host = to_host(previous ? impl_->u_prev : impl_->u);
  std::vector<float> out(layout_.interior_points());
  std::size_t n = 0;
  for (int k = 0; k < layout_.nz; ++k)
    for (int j = 0; j < layout_.ny; ++j)
      for (int i = 0; i < layout_.nx; ++i) out[n++] = host.data()[layout_.offset(i, j, k)];
  return out;
}

template <class ExecSpace>
double Simulation<ExecSpace>::copy_bandwidth(int repeats) {
  require(step_ == 0, "copy_bandwidth: measured before the first step only (step ", step_, ")");
  Impl& m = *impl_;
  const ExecSpace& main = m.instances[0];
  vector_copy(main, m.u, m.u_prev);
  main.fence();
  Kokkos::Timer timer;
  for (int n = 0; n < repeats; ++n) vector_copy(main, m.u, m.u_prev);
  main.fence();
  const double seconds = timer.seconds() / std::max(repeats, 1);
  Kokkos::deep_copy(m.u.span(), 0.0f);
  Kokkos::deep_copy(m.u_prev.span(), 0.0f);
  return 2.0 * layout_.size * sizeof(float) / seconds * 1e-9;
}

template <class ExecSpace>
double Simulation<ExecSpace>::bytes_per_step() const {
  const double pml_points = static_cast<double>(pml_.points());
  const double inner = static_cast<double>(layout_.interior_points()) - pml_points;
  return 16.0 * inner + 24.0 * pml_points;
}

}  // namespace seis::wave

#pragma once
// The step's engine of one part: the scheme's coefficients (q = V^2 dt^2 and the PML's damping, which the model
// and dt fix), the execution-space instances and the launches that update a region of the part one time step (the
// tile engine or a code shape, in the setup's strategy), templated on what the kernels carry besides the update
// (NoExtra, ImageTerm, WeightTerm), so the imaging condition and the Born weight ride in the step's own kernels.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "seis/core/coefficients.hpp"
#include "seis/core/compat.hpp"
#include "seis/core/device_copy.hpp"
#include "seis/core/host_parallel.hpp"
#include "seis/kernels/radius_dispatch.hpp"
#include "seis/kernels/tile_engine.hpp"
#include "seis/wave/density.hpp"
#include "seis/wave/density_field.hpp"
#include "seis/wave/halo_driver.hpp"
#include "seis/wave/setup.hpp"
#include "seis/wave/shape.hpp"
#include "seis/wave/shape_kernels.hpp"
#include "seis/wave/source_zone.hpp"
#include "seis/wave/step_term.hpp"
#include "seis/wave/tti.hpp"
#include "seis/wave/update.hpp"
#include "seis/wave/wavefield.hpp"

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

// A field f(value) at the points of `region` (global indices) from values given over `box` (x fastest), placed in
// the layout of `part` (its halo where the region reaches beyond the part), computed where the field lives from the
// values' planes, staged a slab of at most 2^24 floats at a time where the device cannot read the host: neither a
// padded host field nor a second whole model on the device. The host's single-threaded pass of q over 512^3 points
// took about a second of a survey's first shot on the H100s (perf/NOTES.md 110-111).
template <class ExecSpace, class F>
void fill_from_box(const Subdomain& box, const Subdomain& region, const Subdomain& part, const FieldLayout& layout,
                   const float* model, float* out, const F& f) {
  using Memory = typename ExecSpace::memory_space;
  const int* n = region.size;
  const int at[3] = {region.offset[0] - part.offset[0], region.offset[1] - part.offset[1],
                     region.offset[2] - part.offset[2]};
  const std::size_t row = std::size_t(box.size[0]), plane = row * std::size_t(box.size[1]);
  // The box's floats from the region's first point of a plane to its last: the rows between, whole.
  const std::size_t first =
      std::size_t(region.offset[1] - box.offset[1]) * row + std::size_t(region.offset[0] - box.offset[0]);
  const std::size_t span = std::size_t(n[1] - 1) * row + std::size_t(n[0]);
  // Planes staged at a time: 2^24 floats' worth, no more than the region has (a whole 2^24-float buffer for a small
  // part was 64 MiB of device memory no plan counted).
  const int slab = int(std::clamp<std::size_t>((std::size_t(1) << 24) / plane, 1, std::size_t(n[2])));
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible;
  Kokkos::View<float*, Memory> staging;
  if (!host) staging = Kokkos::View<float*, Memory>("seis::wave::model slab", std::size_t(slab - 1) * plane + span);
  for (int k0 = 0; k0 < n[2]; k0 += slab) {
    const int k1 = std::min(n[2], k0 + slab);
    const std::size_t begin = std::size_t(k0 + region.offset[2] - box.offset[2]) * plane + first;
    const std::size_t count = std::size_t(k1 - k0 - 1) * plane + span;
    const float* values = model + begin;
    if constexpr (!host) {
      Kokkos::View<const float*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> source(values, count);
      Kokkos::deep_copy(Kokkos::subview(staging, std::make_pair(std::size_t(0), count)), source);
      values = staging.data();
    }
    using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>>;
    Kokkos::parallel_for(
        "seis::wave::model_field", Policy({0, 0, k0}, {n[0], n[1], k1}),
        KOKKOS_LAMBDA(const int i, const int j, const int k) {
          out[layout.offset(at[0] + i, at[1] + j, at[2] + k)] =
              f(values[std::size_t(k - k0) * plane + std::size_t(j) * row + std::size_t(i)]);
        });
    Kokkos::fence();
  }
}

// f(value) of the model's values (model_box's points, velocity's order) at every interior point of the part.
template <class ExecSpace, class F>
void fill_from_model(const Setup& s, const Subdomain& part, const FieldLayout& layout, const float* model, float* out,
                     const F& f) {
  fill_from_box<ExecSpace>(model_box(s), part, part, layout, model, out, f);
}

// q = v^2 dt^2 (the double product rounded to float, as the host rounds it).
template <class ExecSpace>
void fill_q(const Setup& s, const Subdomain& part, const FieldLayout& layout, float* q) {
  const double dt2 = s.dt * s.dt;
  fill_from_model<ExecSpace>(
      s, part, layout, s.velocity.data(), q,
      KOKKOS_LAMBDA(float v) { return static_cast<float>(double(v) * v * dt2); });
}

// One of the TTI step's coefficient fields of the zones' medium (tti_coefficient's `component`: 1 + 2 epsilon, with
// the zones of the shot's sources (source_zone.hpp), sqrt(1 + 2 delta), the axis' three components) at the points
// of `region` (a box of those the anisotropy holds, density_box: the part's and, at a shared face, the R planes
// beyond it, where the update reads the neighbour's axis), computed on the host (the same bits on every backend),
// then placed as q is.
template <class ExecSpace>
void fill_tti(const SourceZones& zones, const Subdomain& part, const FieldLayout& layout, int component, float* out,
              const Subdomain& region) {
  const Anisotropy& a = zones.medium.anisotropy;
  const Subdomain held = density_box(zones.medium);
  const auto value = [](const std::vector<float>& v, std::size_t n) { return v.empty() ? 0.0 : double(v[n]); };
  const std::size_t nx = std::size_t(region.size[0]), ny = std::size_t(region.size[1]);
  std::vector<float> values = host_floats(region.points());
  // A row at a time, so that the region's index is split into (j, k) once a row; pieces of about 2^20 points.
  const std::size_t rows = ny * std::size_t(region.size[2]),
                    grain = (std::size_t(1) << 20) / std::max<std::size_t>(nx, 1) + 1;
  host_parallel_for(
      rows,
      [&](std::size_t begin, std::size_t end) {
        for (std::size_t row = begin; row < end; ++row) {
          const std::size_t j = row % ny + std::size_t(region.offset[1] - held.offset[1]);
          const std::size_t k = row / ny + std::size_t(region.offset[2] - held.offset[2]);
          const std::size_t first = (k * std::size_t(held.size[1]) + j) * std::size_t(held.size[0]) +
                                    std::size_t(region.offset[0] - held.offset[0]);
          for (std::size_t i = 0; i < nx; ++i) {
            const std::size_t m = first + i;
            values[row * nx + i] = tti_coefficient(component, value(a.epsilon, m), value(a.delta, m), value(a.tilt, m),
                                                   value(a.azimuth, m));
          }
        }
      },
      grain);
  if (component == 0) apply_source_zones(zones, values, region);
  fill_from_box<ExecSpace>(region, region, part, layout, values.data(), out, [] KOKKOS_FUNCTION(float v) { return v; });
}

// Which launch of a step: one slab (Slab), or these.
enum Launch : int { inner_launch = -1, unified_launch = -2, slabs_launch = -3 };

// Launch options of one launch of a step at radius R, where the user chose no tile, on GPUs. The inner and the
// unified kernels take 16 x 8 tiles, 16 planes deep up to R = 4 and 32 beyond: on the inner region's whole lines
// (line_aligned_boxes) they ran the seven step at 512^3 1.047 -> 1.003-1.005 ms at R = 4, where 28 x 8 x 32 gave
// 1.090 and 16 x 8 x 32 1.014, and at R = 8 1.379 against 1.362 with 32 planes (H100, perf/NOTES.md 86, 87); the
// unified step with one phi row per vector 0.941 ms (perf/NOTES.md 95). Steps that carry an image or a Born weight
// (`carrying`) hold more values at the 128-register cap and take 8 x 8 tiles up to R = 4: at 512^3 and R = 4 the
// weight's step 1.43 -> 1.35 ms, the image's 2.04 -> 1.95, a shot's exact adjoint at R = 2 -5%, at R = 8 (32
// planes) +4% (H200, perf/NOTES.md 163). The slab launches get tiles of 8 vectors across: x slabs are narrow (tall
// tiles when alone).
constexpr int default_window(int radius) { return radius <= 4 ? 16 : 32; }

template <class ExecSpace>
LaunchOptions launch_options(const LaunchOptions& o, int launch, int radius, bool carrying) {
  LaunchOptions out = o;
  out.nontemporal = true;
  if (!is_gpu_space<ExecSpace>() || o.tile_x != 0 || o.tile_y != 0) return out;
  const bool whole = launch == inner_launch || launch == unified_launch;
  out.tile_x = whole && !(carrying && radius <= 4) ? 16 : 8;
  out.tile_y = whole ? 8 : launch == x_low || launch == x_high ? 32 : 16;
  if (whole && o.window == 0) out.window = default_window(radius);
  return out;
}

// A one-box launch's tiles on GPUs, where the user chose none: as many tiles per axis as the launch's tile needs,
// each the smallest that covers the box evenly. The inner box of 512^3 with ndamp 27 has rows of 116 vectors and
// 458 planes: four 32-vector tiles and 15 windows of 32 left 9% of the threads and 5% of the planes idle
// (perf/NOTES.md 48).
template <class ExecSpace>
LaunchOptions balanced_tiles(const LaunchOptions& user, LaunchOptions o, const Box& b, const TileShape& fallback) {
  if (!is_gpu_space<ExecSpace>() || user.tile_x != 0 || user.tile_y != 0 || user.window != 0 || b.points() == 0)
    return o;
  const TileShape t = resolve_tile(o, fallback, true);
  const auto even = [](int n, int tile) {
    const int tiles = (n + tile - 1) / tile;
    return (n + tiles - 1) / tiles;
  };
  o.tile_x = even(box_columns(b, wave_vec), t.tx);
  // A box narrower than the tile (a decomposed part's x face layer is one vector wide) keeps the team's threads in
  // taller tiles: 1 x 8 tiles ran teams of 8 threads.
  o.tile_y = even(b.y1 - b.y0, std::max(t.ty, t.tx * t.ty / o.tile_x));
  o.window = even(b.z1 - b.z0, t.nw);
  return o;
}

// Whether the seven strategy's y slabs walk their rows (TransposedYZ): on GPUs, with the tile engine, where the
// transposed view's offsets fit 32 bits. At 512^3 with ndamp 27 a y slab is 27 rows deep and 458 planes long:
// walking its rows its launch took 65-66 us instead of 70-72, the z slabs' 66-67 (H100, perf/NOTES.md 87).
template <class ExecSpace>
bool y_slabs_walk_rows(const Numerics& numerics, const FieldLayout& layout) {
  return is_gpu_space<ExecSpace>() && numerics.shape == Shape::tile &&
         layout.size <= static_cast<std::size_t>(std::numeric_limits<int>::max());
}

// The launch options of a one-step launch: a 3.5D shape's tile is its own, its companion (single_step_shape) keeps
// its default.
inline LaunchOptions single_step_options(const Numerics& numerics) {
  LaunchOptions o = numerics.launch;
  if (single_step_shape(numerics.shape) != numerics.shape) o.tile_x = o.tile_y = o.window = 0;
  return o;
}

// The imaging condition at every interior point of u by a pass of its own (the code shapes' steps).
template <class ExecSpace>
void add_image(const ExecSpace& exec, const ImageTerm& image, const FieldLayout& L, const float* u) {
  using Points = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>>;
  Kokkos::parallel_for(
      "seis::wave::image_pass", Points(exec, {0, 0, 0}, {L.nx, L.ny, L.nz}),
      KOKKOS_LAMBDA(const int i, const int j, const int k) {
        const index_t o = L.offset(i, j, k);
        image.add(o, u[o]);
      });
}

template <class ExecSpace>
class Propagator {
 public:
  using Memory = typename ExecSpace::memory_space;
  using Floats = Kokkos::View<float*, Memory>;

  // Checks the launch options against the backend's limits for every kernel the step may launch, then fills the
  // coefficients from `setup`'s model over `part`.
  Propagator(const Setup& setup, const Subdomain& part, const FieldLayout& layout, const PmlGeometry& pml);
  // The coefficients of another model of the same grid and scheme (Simulation::set_model), in the same memory.
  void set_model(const Setup& setup, const Subdomain& part);
  // The TTI step's 1 + 2 epsilon with the zones of another shot's sources, where it runs: refilled where the last
  // zones were or the new ones are, no more (a shot's zones are a few wavelengths across, the field the whole grid);
  // a last box inside a new one (a migration's second side places the same zones) is filled once.
  void place_source_zones(const SourceZones& zones, const Subdomain& part) {
    if (!tti_) return;
    std::vector<Subdomain> boxes = source_zone_boxes(zones);
    for (const Subdomain& box : zoned_)
      if (std::none_of(boxes.begin(), boxes.end(), [&](const Subdomain& b) { return b.contains(box); }))
        fill_tti<ExecSpace>(zones, part, layout_, 0, tti_fields_[0].data(), box);
    for (const Subdomain& box : boxes) fill_tti<ExecSpace>(zones, part, layout_, 0, tti_fields_[0].data(), box);
    zoned_ = std::move(boxes);
  }

  const ExecSpace& main() const { return instances_[0]; }
  const compat::Instances<ExecSpace>& instances() const { return instances_; }
  const float* q() const { return q_.data(); }
  const float* rho() const { return rho_.data(); }  // where the density varies, else null
  // What the TTI step's sources add to p for each they add to r, sqrt(1 + 2 delta) at each point (tti.hpp); null for
  // the other steps, whose sources fire into u alone, and for the transposed step, whose sources are the data's
  // transposed recording (into p alone).
  const float* source_direction() const { return tti_ && !transposed_ ? tti_fields_[1].data() : nullptr; }
  // The shape's tile as its launches use it (after fitting the backend's limits); zero for the tile engine.
  const TileShape& tile() const { return tile_; }
  StepFields<Memory> fields(const Wavefield<Memory>& w) const {
    return {layout_,
            pml_,
            w.u.span(),
            w.u_prev.span(),
            w.phi,
            q_.span(),
            {eta_[0], eta_[1], eta_[2]},
            {gradient_[0], gradient_[1], gradient_[2]},
            rho_.span(),
            w.r.span(),
            w.r_prev.span()};
  }

  // One step's update of the points in `region` (the whole part, or its core or one face layer) on `main`, with
  // the imaging condition where `image` has a weight: in the tile engine's kernels (ImagingUpdate), by a pass of
  // its own over the part before a code shape's or the variable-density kernel's update (a driver's term: one part,
  // so one region); with the Born weight where `weight` has one, which only the tile engine's kernels carry
  // (carries_weight).
  void step(const Wavefield<Memory>& w, const Box& region, const ExecSpace& main, const ImageTerm& image,
            const WeightTerm& weight = {}) {
    require(weight.weight == nullptr || carries_weight(), "the step's kernels carry no Born weight here");
    if (tti_) return with_tti_step(w, [&](const auto& t) { tti_step(main, t, region); });
    const bool varies = rho_.data() != nullptr, imaging = image.weight != nullptr;
    const bool carries_image = n_.shape == Shape::tile && !varies;  // the tile engine's epilogue
    if (imaging && !carries_image) add_image(main, image, layout_, w.u.data());
    if (varies) return density_update(w, region, main);
    if (imaging && carries_image) return update(w, region, main, image);
    if (weight.weight != nullptr) return update(w, region, main, weight);
    update(w, region, main, NoExtra{});
  }
  // Whether step() carries a Born weight: the tile engine's constant-density step.
  bool carries_weight() const { return n_.shape == Shape::tile && !tti_ && rho_.data() == nullptr; }
  // Steps n + 1 and n + 2 in one launch (3.5D shapes): into the wavefield's spares, the sources by column.
  void two_steps(const Wavefield<Memory>& w, const TwoSteps& two) const;
  // Whether the step is the TTI step, which a decomposed part runs pass by pass (tti_pass) between the halos of its
  // fields and of their rotated derivatives; step() runs both passes over a region, which must be the whole part.
  bool tti() const { return tti_; }
  float* rotated_derivative(int field) const { return rotated_[field].data(); }
  // The TTI step's transpose in place of the step (tti.hpp: the exact adjoint's, in nu = q g lambda), or the step
  // again; its operand's two fields are allocated the first time. The other steps are their own transposes in the
  // adjoint's variable (imaging/step_terms.hpp): for them nothing changes.
  void transpose(bool on) {
    if (!tti_) return;
    if (on && operand_[0].data() == nullptr)
      for (Field<Memory>& f : operand_) {
        f = Field<Memory>("seis::wave::transposed operand", layout_);
        Kokkos::deep_copy(f.span(), 0.0f);  // zero walls
      }
    transposed_ = on;
  }
  bool transposed() const { return transposed_; }
  // One pass of the TTI step over `region` on `exec`.
  void tti_pass(const Wavefield<Memory>& w, TtiPass pass, const Box& region, const ExecSpace& exec) const {
    with_tti_step(w, [&](const auto& t) { wave::tti_pass(exec, t, pass, region); });
  }

 private:
  // f(TtiStep<R>) of the wavefield's fields, its layer's damping the PML's profile (eta, d dt).
  template <class F>
  void with_tti_step(const Wavefield<Memory>& w, const F& f) const {
    with_radius(n_.radius, [&](auto r) {
      constexpr int R = decltype(r)::value;
      TtiStep<R> t{layout_,
                   w.u.data(),
                   w.r.data(),
                   w.u_prev.data(),
                   w.r_prev.data(),
                   q_.data(),
                   tti_fields_[0].data(),
                   tti_fields_[1].data(),
                   {tti_fields_[2].data(), tti_fields_[3].data(), tti_fields_[4].data()},
                   {eta_[0].data() + profile_lead, eta_[1].data() + profile_lead, eta_[2].data() + profile_lead},
                   rotated_[0].data(),
                   rotated_[1].data(),
                   {},
                   {},
                   free_top_};
      for (int m = 0; m <= R; ++m) t.w2[m] = second_weights_[std::size_t(m)];
      for (int m = 0; m < R; ++m) t.w1[m] = first_weights_[std::size_t(m)];
      if (transposed_) t.cp = operand_[0].data(), t.cr = operand_[1].data();
      f(t);
    });
  }

  Numerics n_;
  double h_ = 0;
  FieldLayout layout_;
  PmlGeometry pml_;
  StencilCoefficients coefficients_;
  Field<Memory> q_;
  Field<Memory> rho_;                                   // the density where it varies (density.hpp), else none
  std::array<double, max_radius> staggered_weights_{};  // its staggered difference, unit spacing
  Floats eta_[3], gradient_[3];                         // AxisDamping of x, y, z
  // The TTI step (tti.hpp): whether it runs, its coefficient fields (1 + 2 epsilon, sqrt(1 + 2 delta), the axis'
  // components), its scratch of rotated derivatives and its weights.
  bool tti_ = false, free_top_ = false;  // free_top_: the part holds the grid's top face, a free surface
  Field<Memory> tti_fields_[5], rotated_[2];
  std::vector<Subdomain> zoned_;  // the points the zones of 1 + 2 epsilon's last fill reach (source_zone_boxes)
  bool transposed_ = false;       // the transposed step (transpose), its operand psi = C nu
  Field<Memory> operand_[2];
  std::array<float, max_radius + 1> second_weights_{};
  std::array<float, max_radius> first_weights_{};
  compat::Instances<ExecSpace> instances_{step_instances, halo_instance};
  WaveLauncher<ExecSpace> launcher_{TileShape{32, 8, 32}};
  TileShape tile_{};

  WaveArrays arrays(const Wavefield<Memory>& w) const {
    return {w.u_prev.data(),
            q_.data(),
            w.phi.data(),
            eta_[0].data() + profile_lead,
            eta_[1].data() + profile_lead,
            eta_[2].data() + profile_lead,
            gradient_[0].data() + profile_lead,
            gradient_[1].data() + profile_lead,
            gradient_[2].data() + profile_lead,
            pml_,
            true};
  }

  // The points of `region` by the variable-density kernel, one launch in every strategy.
  void density_update(const Wavefield<Memory>& w, const Box& region, const ExecSpace& main) const {
    with_radius(n_.radius, [&](auto r) {
      constexpr int R = decltype(r)::value;
      DensityStep<R> step{layout_, w.u.data(), rho_.data(), arrays(w), {}};
      for (int k = 0; k < R; ++k) step.c[k] = static_cast<float>(staggered_weights_[std::size_t(k)] / h_);
      density_step(main, region, step);
    });
  }

  // The points of `region` by the same kernels as in the undecomposed run, in the setup's strategy; launched on
  // `main` (instance 0 or, for the strategies of one instance, unified and two, another); the seven strategy forks
  // from instance 0.
  template <class Extra>
  void update(const Wavefield<Memory>& w, const Box& region, const ExecSpace& main, const Extra& extra) {
    const WaveArrays a = arrays(w);
    const auto update = [&](auto where) { return step_update<decltype(where)::value>(a, extra); };
    using Inner = std::integral_constant<Region, Region::inner>;
    using Layer = std::integral_constant<Region, Region::pml>;
    using Both = std::integral_constant<Region, Region::both>;
    const LaunchBoxes boxes = n_.shape == Shape::tile ? line_aligned_boxes(pml_) : region_boxes(pml_);
    const Box inner = intersect(boxes.inner, region);
    Box slabs[slab_count];
    for (int s = 0; s < slab_count; ++s) slabs[s] = intersect(boxes.slab[s], region);
    const ShapeStep shape_step{
        w.u.data(), layout_, coefficients_, a, static_cast<float>(0.25 / (h_ * h_)), single_step_options(n_), {}};
    with_radius(n_.radius, [&](auto r) {
      constexpr int R = decltype(r)::value;
      // Launch `which` (a Slab or a Launch) of the boxes, by the tile engine or the setup's shape.
      const auto launch = [&](const ExecSpace& exec, int which, const Box* boxes, int count, const auto& update) {
        if (n_.shape == Shape::tile) {
          LaunchOptions o = launch_options<ExecSpace>(n_.launch, which, R, carries_extra<Extra>);
          if (count == 1) o = balanced_tiles<ExecSpace>(n_.launch, o, boxes[0], launcher_.gpu_default);
          launcher_.template launch_boxes<R, wave_vec>(exec, w.u.data(), layout_, coefficients_, o, boxes, count,
                                                       update);
        } else {
          launch_shape(exec, single_step_shape(n_.shape), R, std::decay_t<decltype(update)>::where, shape_step, boxes,
                       count);
        }
      };
      // Slab s of the seven strategy, a y slab through the fields' y-z transposed view where y_slabs_walk_rows says.
      const auto launch_slab = [&](const ExecSpace& exec, int s, const Box& b) {
        if constexpr (is_gpu_space<ExecSpace>()) {
          if ((s == y_low || s == y_high) && y_slabs_walk_rows<ExecSpace>(n_, layout_)) {
            const Box t{b.x0, b.x1, b.z0, b.z1, b.y0, b.y1};
            const LaunchOptions o = balanced_tiles<ExecSpace>(
                n_.launch, launch_options<ExecSpace>(n_.launch, s, R, carries_extra<Extra>), t, launcher_.gpu_default);
            launcher_.template launch_boxes<R, wave_vec>(
                exec, w.u.data(), transposed_yz(layout_), swap_yz(coefficients_), o, &t, 1,
                TransposedYZ<decltype(update(Layer{}))>{update(Layer{}), layout_});
            return;
          }
        }
        launch(exec, s, &b, 1, update(Layer{}));
      };
      switch (n_.strategy) {
        case Strategy::unified:
          launch(main, unified_launch, &region, 1, update(Both{}));
          break;
        case Strategy::two:
          launch(main, inner_launch, &inner, 1, update(Inner{}));
          if (pml_.thickness > 0) launch(main, slabs_launch, slabs, slab_count, update(Layer{}));
          break;
        case Strategy::seven:
          // The slab kernels read what the previous kernels on `main` wrote; the next ones on `main` read what the
          // slabs write: device-side dependencies, no host fence.
          instances_.fork();
          launch(main, inner_launch, &inner, 1, update(Inner{}));
          if (pml_.thickness > 0)
            for (int s = 0; s < slab_count; ++s)
              if (slabs[s].points() > 0) launch_slab(instances_[1 + s], s, slabs[s]);
          instances_.join();
          break;
      }
    });
  }
};

template <class ExecSpace>
Propagator<ExecSpace>::Propagator(const Setup& setup, const Subdomain& part, const FieldLayout& layout,
                                  const PmlGeometry& pml)
    : n_(setup), h_(setup.h), layout_(layout), pml_(pml) {
  if (n_.shape != Shape::tile) {
    tile_ = check_shape<ExecSpace>(n_.shape, n_.radius, layout_, n_.launch);
    if (single_step_shape(n_.shape) != n_.shape)
      check_shape<ExecSpace>(single_step_shape(n_.shape), n_.radius, layout_, single_step_options(n_));
  } else {
    with_radius(n_.radius, [&](auto r) {
      constexpr int R = decltype(r)::value;
      WaveLauncher<ExecSpace> launcher{TileShape{32, 8, 32}};
      // The plain step's kernels and the imaging steps' (ImagingUpdate), whose resources may differ.
      const auto check = [&](auto extra) {
        using Extra = decltype(extra);
        const auto options = [&](int launch) {
          return launch_options<ExecSpace>(n_.launch, launch, R, carries_extra<Extra>);
        };
        launcher.template check<R, wave_vec>("wave step", layout_, options(inner_launch),
                                             step_update<Region::inner>({}, Extra{}));
        launcher.template check<R, wave_vec>("wave step (unified)", layout_, options(unified_launch),
                                             step_update<Region::both>({}, Extra{}));
        for (int launch : {int(slabs_launch), int(x_low)})
          launcher.template check<R, wave_vec>("wave step (layer)", layout_, options(launch),
                                               step_update<Region::pml>({}, Extra{}));
        if constexpr (is_gpu_space<ExecSpace>())
          if (y_slabs_walk_rows<ExecSpace>(n_, layout_))
            launcher.template check<R, wave_vec>("wave step (y slabs)", transposed_yz(layout_), options(y_low),
                                                 TransposedYZ<decltype(step_update<Region::pml>({}, Extra{}))>{
                                                     step_update<Region::pml>({}, Extra{}), layout_});
      };
      check(NoExtra{});
      check(ImageTerm{});
      check(WeightTerm{});
    });
  }
  coefficients_ = make_coefficients(n_.radius, h_, h_, h_);
  q_ = Field<Memory>("seis::wave::q", layout_);
  Kokkos::deep_copy(q_.span(), 0.0f);  // halo and padding: whole vectors read them (fill_q writes the interior)
  if (tti_medium(setup)) {
    tti_ = true;
    free_top_ = holds_free_top(setup, part);
    // Zero beyond the part's points but where the part shares a face: the step reads the axis and the rotated
    // derivatives there (its zero walls), writes neither, and finds them at a shared face (the neighbour's axis,
    // fill_tti; its rotated derivatives, the halo exchange).
    for (Field<Memory>& f : tti_fields_) f = Field<Memory>("seis::wave::tti coefficient", layout_);
    for (Field<Memory>& f : rotated_) f = Field<Memory>("seis::wave::rotated derivative", layout_);
    for (Field<Memory>* f : {&tti_fields_[0], &tti_fields_[1], &tti_fields_[2], &tti_fields_[3], &tti_fields_[4],
                             &rotated_[0], &rotated_[1]})
      Kokkos::deep_copy(f->span(), 0.0f);
    const std::vector<double> w2 = second_derivative_weights(n_.radius),
                              w1 = centred_first_derivative_weights(n_.radius);
    for (int m = 0; m <= n_.radius; ++m)
      second_weights_[std::size_t(m)] = static_cast<float>(w2[std::size_t(m)] / (h_ * h_));
    for (int m = 0; m < n_.radius; ++m) first_weights_[std::size_t(m)] = static_cast<float>(w1[std::size_t(m)] / h_);
  }
  if (variable_density(setup)) {
    with_radius(n_.radius, [](auto r) { check_density_step_limits<ExecSpace, decltype(r)::value>(); });
    require(layout_.halo >= 2 * n_.radius - 1, "the variable-density step reads 2R - 1 = ", 2 * n_.radius - 1,
            " points beyond a part, its fields' halo is ", layout_.halo);
    const std::vector<double> c = staggered_first_derivative_weights(n_.radius);
    std::copy(c.begin(), c.end(), staggered_weights_.begin());
  }
  set_model(setup, part);
}

template <class ExecSpace>
void Propagator<ExecSpace>::set_model(const Setup& setup, const Subdomain& part) {
  fill_q<ExecSpace>(setup, part, layout_, q_.data());
  for (int c = 0; tti_ && c < 5; ++c)
    fill_tti<ExecSpace>(SourceZones{setup, setup}, part, layout_, c, tti_fields_[c].data(), density_box(setup));
  if (tti_) zoned_ = source_zone_boxes(SourceZones{setup, setup});
  if (variable_density(setup)) {
    if (rho_.data() == nullptr) rho_ = Field<Memory>("seis::wave::density", layout_);
    const Field<Memory> rho = density_field<Memory>(setup, part, layout_);
    Kokkos::deep_copy(rho_.span(), rho.span());  // in place: step terms hold views of it
  }
  // The same profile for the TTI step's damping layer: designed for a faster speed, v sqrt(1 + 2 epsilon) across an
  // axis, it reflected more at its entrance and no less from deeper (perf/NOTES.md 144).
  const double scale = damping_scale(setup.dt, model_vmax(setup), pml_.thickness, h_);
  for (int axis = 0; axis < 3; ++axis) {
    const AxisDamping d =
        axis_damping(damping_profile(part.global[axis], pml_.thickness, scale, axis == 2 ? pml_.top : -1),
                     part.offset[axis], part.size[axis], h_);
    eta_[axis] = to_device<Memory>("seis::wave::eta", d.eta);
    gradient_[axis] = to_device<Memory>("seis::wave::eta_gradient", d.gradient);
  }
}

template <class ExecSpace>
void Propagator<ExecSpace>::two_steps(const Wavefield<Memory>& w, const TwoSteps& two) const {
  ShapeStep s{w.u.data(), layout_, coefficients_, arrays(w), 0.0f, n_.launch, two};
  const Box grid{0, layout_.nx, 0, layout_.ny, 0, layout_.nz};
  launch_shape(main(), n_.shape, n_.radius, Region::both, s, &grid, 1);
}

}  // namespace seis::wave

#pragma once
// Definitions of simulation.hpp, included once per backend by a generated translation unit.
#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <utility>

#include "seis/core/coefficients.hpp"
#include "seis/core/compat.hpp"
#include "seis/core/device_copy.hpp"
#include "seis/core/fast_divisor.hpp"
#include "seis/core/profiling_region.hpp"
#include "seis/kernels/copy.hpp"
#include "seis/kernels/radius_dispatch.hpp"
#include "seis/kernels/tile_engine.hpp"
#include "seis/wave/shape_kernels.hpp"
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

// Host memory for halos of a transport that cannot read the device's: page-locked where the backend has it, so
// the device copies run at the link's speed (pageable memory measured 2-3 x slower on the H200s, perf/NOTES.md).
template <class Memory>
struct StagingSpace {
  using type = Kokkos::HostSpace;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct StagingSpace<Kokkos::CudaSpace> {
  using type = Kokkos::CudaHostPinnedSpace;
};
#endif
#if defined(KOKKOS_ENABLE_HIP)
template <>
struct StagingSpace<compat::HIPSpace> {
#if KOKKOS_VERSION >= 40000
  using type = Kokkos::HIPHostPinnedSpace;
#else
  using type = Kokkos::Experimental::HIPHostPinnedSpace;
#endif
};
#endif

// The instance of a decomposed part's face layers (Simulation::Impl::instances).
inline constexpr int boundary_instance = 1 + slab_count + face_count;

template <class ExecSpace>
struct Simulation<ExecSpace>::Impl {
  using Memory = typename ExecSpace::memory_space;
  using Floats = Kokkos::View<float*, Memory>;
  Field<Memory> u, u_prev, q;
  Floats phi, traces, receiver_weight;
  Floats eta[3], gradient[3];  // AxisDamping of x, y, z
  Kokkos::View<index_t*, Memory> receiver_offset;
  // Source point p adds, for each entry e in [source_first(p), source_first(p + 1)), source_weight(e) q times
  // amplitude(source_owner(e) x steps + n): one owner (the wavelet) for a shot, one per trace for injected data.
  Kokkos::View<index_t*, Memory> source_offset;
  Kokkos::View<int*, Memory> source_first, source_owner;
  Floats source_weight, amplitude;
  int source_points = 0;
  // States kept on the device (keep, return_to): u, u_prev, phi and the traces each, and their steps.
  struct Kept {
    Floats u, u_prev, phi, traces;
    int step = 0;
  };
  std::vector<Kept> kept;
  StencilCoefficients coefficients;
  // Instance 0 runs the step; 1 + s the seven strategy's slab s; 1 + slab_count + f packs the halo of face f;
  // the last unpacks the halos and updates the face layers beside the core (boundary_instance). The halo's
  // instances are urgent: on four H100s their layers otherwise ran after most of the core (perf/NOTES.md 112).
  compat::Instances<ExecSpace> instances{boundary_instance + 1, 1 + slab_count};
  WaveLauncher<ExecSpace> launcher{TileShape{32, 8, 32}};
  // The part's core (updated while the halos travel) and its face layers (after), and the halo buffers of a
  // message transport: on the device, with host copies when the transport needs host memory (a direct transport
  // owns its buffers).
  Box core;
  Box face_layer[face_count];
  Box send_box[face_count], receive_box[face_count];
  Floats send[face_count], receive[face_count];
  using Staged = Kokkos::View<float*, typename StagingSpace<Memory>::type>;
  Staged send_host[face_count], receive_host[face_count];
  bool staged = false;
  // 3.5D shapes: the spare fields that steps n + 1 and n + 2 and phi go to, the sources by column, the wavelet.
  Field<Memory> spare_1, spare_2;
  Floats phi_spare, column_source_weight;
  Kokkos::View<int*, Memory> column_first, column_source_column, column_source_z;
  int column_sources = 0;
  std::vector<float> amplitude_host;
  // The stability watch's per-worker maxima (largest_magnitude), on the device and their host copy.
  Floats largest;
  typename Floats::HostMirror largest_host;
  // The imaging condition of the next step only (correlate_next_step).
  ImageTerm image;

  WaveArrays arrays(const PmlGeometry& pml) const {
    return {u_prev.data(),
            q.data(),
            phi.data(),
            eta[0].data() + profile_lead,
            eta[1].data() + profile_lead,
            eta[2].data() + profile_lead,
            gradient[0].data() + profile_lead,
            gradient[1].data() + profile_lead,
            gradient[2].data() + profile_lead,
            pml,
            true};
  }
};

namespace {

// q = v^2 dt^2 (the double product rounded to float, as the host rounds it) at every interior point of the part,
// computed where q lives from the model's planes, staged a slab of at most 2^24 floats at a time where the device
// cannot read the host: neither a padded host field nor a second whole model on the device. The host's
// single-threaded pass over 512^3 points took about a second of a survey's first shot on the H100s (perf/NOTES.md
// 110-111).
template <class ExecSpace>
void fill_q(const Setup& s, const Subdomain& part, const FieldLayout& layout, float* q) {
  using Memory = typename ExecSpace::memory_space;
  const Subdomain box = model_box(s);
  const int* o = part.offset;
  const int* n = part.size;
  const std::size_t row = std::size_t(box.size[0]), plane = row * std::size_t(box.size[1]);
  // The box's floats from the part's first point of a plane to its last: the rows between, whole.
  const std::size_t first = std::size_t(o[1] - box.offset[1]) * row + std::size_t(o[0] - box.offset[0]);
  const std::size_t span = std::size_t(n[1] - 1) * row + std::size_t(n[0]);
  // Planes staged at a time: 2^24 floats' worth, no more than the part has (a whole 2^24-float buffer for a small
  // part was 64 MiB of device memory no plan counted).
  const int slab = int(std::clamp<std::size_t>((std::size_t(1) << 24) / plane, 1, std::size_t(n[2])));
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible;
  Kokkos::View<float*, Memory> staging;
  if (!host) staging = Kokkos::View<float*, Memory>("seis::wave::model slab", std::size_t(slab - 1) * plane + span);
  const double dt2 = s.dt * s.dt;
  for (int k0 = 0; k0 < n[2]; k0 += slab) {
    const int k1 = std::min(n[2], k0 + slab);
    const std::size_t begin = std::size_t(k0 + o[2] - box.offset[2]) * plane + first;
    const std::size_t count = std::size_t(k1 - k0 - 1) * plane + span;
    const float* values = s.velocity.data() + begin;
    if constexpr (!host) {
      Kokkos::View<const float*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> source(values, count);
      Kokkos::deep_copy(Kokkos::subview(staging, std::make_pair(std::size_t(0), count)), source);
      values = staging.data();
    }
    using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>>;
    Kokkos::parallel_for(
        "seis::wave::q", Policy({0, 0, k0}, {n[0], n[1], k1}), KOKKOS_LAMBDA(const int i, const int j, const int k) {
          const double v = values[std::size_t(k - k0) * plane + std::size_t(j) * row + std::size_t(i)];
          q[layout.offset(i, j, k)] = static_cast<float>(v * v * dt2);
        });
    Kokkos::fence();
  }
}

// Which launch of a step: one slab (Slab), or these.
enum Launch : int { inner_launch = -1, unified_launch = -2, slabs_launch = -3 };

// Launch options of one launch of a step at radius R, where the user chose no tile, on GPUs. The inner and the
// unified kernels take 16 x 8 tiles, 16 planes deep up to R = 4 and 32 beyond: on the inner region's whole lines
// (line_aligned_boxes) they ran the seven step at 512^3 1.047 -> 1.003-1.005 ms at R = 4, where 28 x 8 x 32 gave
// 1.090 and 16 x 8 x 32 1.014, and at R = 8 1.379 against 1.362 with 32 planes (H100, perf/NOTES.md 86, 87); the
// unified step with one phi row per vector 0.941 ms (perf/NOTES.md 95). The slab launches get tiles of 8 vectors
// across: x slabs are narrow (tall tiles when alone).
template <class ExecSpace>
LaunchOptions launch_options(const LaunchOptions& o, int launch, int radius) {
  LaunchOptions out = o;
  out.nontemporal = true;
  if (!is_gpu_space<ExecSpace>() || o.tile_x != 0 || o.tile_y != 0) return out;
  const bool whole = launch == inner_launch || launch == unified_launch;
  out.tile_x = whole ? 16 : 8;
  out.tile_y = whole ? 8 : launch == x_low || launch == x_high ? 32 : 16;
  if (whole && o.window == 0) out.window = radius <= 4 ? 16 : 32;
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
bool y_slabs_walk_rows(const Setup& setup, const FieldLayout& layout) {
  return is_gpu_space<ExecSpace>() && setup.shape == Shape::tile &&
         layout.size <= static_cast<std::size_t>(std::numeric_limits<int>::max());
}

// Copies the points of box `b` (under 2^31: halo_box_limit) between a field and a buffer (x fastest, then y, then
// z). A point's place by multiplies (FastDivisor), not 64-bit divisions, which cost GPUs about 70 instructions each.
template <bool ToBuffer, class ExecSpace>
void copy_box(const ExecSpace& exec, float* field, const FieldLayout& L, const Box& b, float* buffer) {
  const int bx = b.x1 - b.x0, by = b.y1 - b.y0, x0 = b.x0, y0 = b.y0, z0 = b.z0;
  const FastDivisor per_row(std::max(bx, 1)), per_plane(std::max(by, 1));
  Kokkos::parallel_for(
      ToBuffer ? "seis::wave::halo_pack" : "seis::wave::halo_unpack",
      Kokkos::RangePolicy<ExecSpace>(exec, 0, int(b.points())), KOKKOS_LAMBDA(const int p) {
        const int row = per_row.divide(p), k = per_plane.divide(row);
        const int i = p - row * bx, j = row - k * by;
        float& point = field[L.offset(x0 + i, y0 + j, z0 + k)];
        if (ToBuffer)  // not constexpr: nvcc's extended lambdas cannot first-capture inside one
          buffer[p] = point;
        else
          point = buffer[p];
      });
}

// The launch options of a one-step launch: a 3.5D shape's tile is its own, its companion (single_step_shape) keeps
// its default.
inline LaunchOptions single_step_options(const Setup& setup) {
  LaunchOptions o = setup.launch;
  if (single_step_shape(setup.shape) != setup.shape) o.tile_x = o.tile_y = o.window = 0;
  return o;
}

// One time step's update of the points in `region` (the whole part, or its core or one face layer), in the
// setup's strategy: each point by the same kernel as in the undecomposed run. Launched on `main`, instance 0 or,
// for the strategies of one instance (unified, two), another; the seven strategy forks from instance 0. Imaging:
// the tile engine's kernels with the imaging condition (ImagingUpdate).
template <bool Imaging, class Impl, class ExecSpace>
void update_region(Impl& m, const Setup& setup, const FieldLayout& layout, const PmlGeometry& pml, const Box& region,
                   const ExecSpace& main) {
  const WaveArrays a = m.arrays(pml);
  const auto update = [&](auto where) { return step_update<decltype(where)::value, Imaging>(a, m.image); };
  using Inner = std::integral_constant<Region, Region::inner>;
  using Layer = std::integral_constant<Region, Region::pml>;
  using Both = std::integral_constant<Region, Region::both>;
  const LaunchBoxes boxes = setup.shape == Shape::tile ? line_aligned_boxes(pml) : region_boxes(pml);
  const Box inner = intersect(boxes.inner, region);
  Box slabs[slab_count];
  for (int s = 0; s < slab_count; ++s) slabs[s] = intersect(boxes.slab[s], region);
  const ShapeStep shape_step{
      m.u.data(), layout, m.coefficients, a, static_cast<float>(0.25 / (setup.h * setup.h)), single_step_options(setup),
      {}};
  with_radius(setup.radius, [&](auto r) {
    constexpr int R = decltype(r)::value;
    // Launch `which` (a Slab or a Launch) of the boxes, by the tile engine or the setup's shape.
    const auto launch = [&](const ExecSpace& exec, int which, const Box* boxes, int count, const auto& update) {
      if (setup.shape == Shape::tile) {
        LaunchOptions o = launch_options<ExecSpace>(setup.launch, which, R);
        if (count == 1) o = balanced_tiles<ExecSpace>(setup.launch, o, boxes[0], m.launcher.gpu_default);
        m.launcher.template launch_boxes<R, wave_vec>(exec, m.u.data(), layout, m.coefficients, o, boxes, count,
                                                      update);
      } else {
        launch_shape(exec, single_step_shape(setup.shape), R, std::decay_t<decltype(update)>::where, shape_step, boxes,
                     count);
      }
    };
    // Slab s of the seven strategy, a y slab through the fields' y-z transposed view where y_slabs_walk_rows says.
    const auto launch_slab = [&](const ExecSpace& exec, int s, const Box& b) {
      if constexpr (is_gpu_space<ExecSpace>()) {
        if ((s == y_low || s == y_high) && y_slabs_walk_rows<ExecSpace>(setup, layout)) {
          const Box t{b.x0, b.x1, b.z0, b.z1, b.y0, b.y1};
          const LaunchOptions o = balanced_tiles<ExecSpace>(setup.launch, launch_options<ExecSpace>(setup.launch, s, R),
                                                            t, m.launcher.gpu_default);
          m.launcher.template launch_boxes<R, wave_vec>(
              exec, m.u.data(), transposed_yz(layout), swap_yz(m.coefficients), o, &t, 1,
              TransposedYZ<decltype(update(Layer{}))>{update(Layer{}), layout});
          return;
        }
      }
      launch(exec, s, &b, 1, update(Layer{}));
    };
    switch (setup.strategy) {
      case Strategy::unified:
        launch(main, unified_launch, &region, 1, update(Both{}));
        break;
      case Strategy::two:
        launch(main, inner_launch, &inner, 1, update(Inner{}));
        if (pml.thickness > 0) launch(main, slabs_launch, slabs, slab_count, update(Layer{}));
        break;
      case Strategy::seven:
        // The slab kernels read what the previous kernels on `main` wrote; the next ones on `main` read what the
        // slabs write: device-side dependencies, no host fence.
        m.instances.fork();
        launch(main, inner_launch, &inner, 1, update(Inner{}));
        if (pml.thickness > 0)
          for (int s = 0; s < slab_count; ++s)
            if (slabs[s].points() > 0) launch_slab(m.instances[1 + s], s, slabs[s]);
        m.instances.join();
        break;
    }
  });
}

// update_region with the imaging condition's kernels where the step carries it and runs the tile engine (a code
// shape's step takes it from add_image, before its update).
template <class Impl, class ExecSpace>
void step_region(Impl& m, const Setup& setup, const FieldLayout& layout, const PmlGeometry& pml, const Box& region,
                 const ExecSpace& main) {
  if (m.image.weight != nullptr && setup.shape == Shape::tile)
    update_region<true>(m, setup, layout, pml, region, main);
  else
    update_region<false>(m, setup, layout, pml, region, main);
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

// The receivers' corners at step n from u, `samples` per corner (a free function of no private type: nvcc's
// device lambdas cannot live in private members or depend on their types).
template <class ExecSpace, class Floats, class Offsets>
void record(const ExecSpace& exec, const Floats& traces, const Offsets& offset, const Floats& weight, int corners,
            int samples, const float* u, int n) {
  Kokkos::parallel_for(
      "seis::wave::record", Kokkos::RangePolicy<ExecSpace>(exec, 0, corners), KOKKOS_LAMBDA(const int c) {
        traces(std::size_t(c) * samples + n) = offset(c) >= 0 ? weight(c) * u[offset(c)] : 0.0f;
      });
}

}  // namespace

template <class ExecSpace>
Simulation<ExecSpace>::Simulation(const Setup& setup, const Subdomain& part, HaloExchange* halo)
    : setup_(without_model(setup)), part_(part), halo_(halo) {
  validate(setup, part_, compat::available_memory_bytes());
  layout_ = make_layout(part_.size[0], part_.size[1], part_.size[2], setup_.radius);
  pml_ = make_pml_geometry(part_, setup_.boundary == Boundary::pml ? setup_.ndamp : 0);
  bool shares_face = false;
  for (bool n : part_.neighbour) shares_face = shares_face || n;
  require(!shares_face || halo_ != nullptr, "a part that shares a face needs a halo exchange");
  if (setup_.shape != Shape::tile) {
    tile_ = check_shape<ExecSpace>(setup_.shape, setup_.radius, layout_, setup_.launch);
    if (single_step_shape(setup_.shape) != setup_.shape)
      check_shape<ExecSpace>(single_step_shape(setup_.shape), setup_.radius, layout_, single_step_options(setup_));
  } else {
    with_radius(setup_.radius, [&](auto r) {
      constexpr int R = decltype(r)::value;
      WaveLauncher<ExecSpace> launcher{TileShape{32, 8, 32}};
      // The plain step's kernels and the imaging steps' (ImagingUpdate), whose resources may differ.
      const auto check = [&](auto imaging) {
        constexpr bool I = decltype(imaging)::value;
        const auto options = [&](int launch) { return launch_options<ExecSpace>(setup_.launch, launch, R); };
        launcher.template check<R, wave_vec>("wave step", layout_, options(inner_launch),
                                             step_update<Region::inner, I>({}, {}));
        launcher.template check<R, wave_vec>("wave step (unified)", layout_, options(unified_launch),
                                             step_update<Region::both, I>({}, {}));
        for (int launch : {int(slabs_launch), int(x_low)})
          launcher.template check<R, wave_vec>("wave step (layer)", layout_, options(launch),
                                               step_update<Region::pml, I>({}, {}));
        if constexpr (is_gpu_space<ExecSpace>())
          if (y_slabs_walk_rows<ExecSpace>(setup_, layout_))
            launcher.template check<R, wave_vec>("wave step (y slabs)", transposed_yz(layout_), options(y_low),
                                                 TransposedYZ<decltype(step_update<Region::pml, I>({}, {}))>{
                                                     step_update<Region::pml, I>({}, {}), layout_});
      };
      check(std::false_type{});
      check(std::true_type{});
    });
  }

  impl_ = std::make_unique<Impl>();
  Impl& m = *impl_;
  m.coefficients = make_coefficients(setup_.radius, setup_.h, setup_.h, setup_.h);
  m.u = Field<memory_space>("seis::wave::u", layout_);
  m.u_prev = Field<memory_space>("seis::wave::u_prev", layout_);
  m.q = Field<memory_space>("seis::wave::q", layout_);
  // On GPUs about one thread per resident slot of a large device (2^18), on hosts a few runs per thread.
  m.largest = typename Impl::Floats("seis::wave::largest", is_gpu_space<ExecSpace>() ? 1 << 18 : 1 << 10);
  m.largest_host = Kokkos::create_mirror_view(m.largest);
  Kokkos::deep_copy(m.u.span(), 0.0f);
  Kokkos::deep_copy(m.u_prev.span(), 0.0f);
  Kokkos::deep_copy(m.q.span(), 0.0f);  // halo and padding: whole vectors read them (fill_q writes the interior)

  fill_q<ExecSpace>(setup, part_, layout_, m.q.data());

  m.phi = typename Impl::Floats("seis::wave::phi", std::max<std::size_t>(pml_.stored(), 1));
  const float vmax = model_vmax(setup_);
  const double scale = damping_scale(setup_.dt, vmax, pml_.thickness, setup_.h);
  for (int axis = 0; axis < 3; ++axis) {
    const AxisDamping d = axis_damping(damping_profile(part_.global[axis], pml_.thickness, scale), part_.offset[axis],
                                       part_.size[axis], setup_.h);
    m.eta[axis] = to_device<memory_space>("seis::wave::eta", d.eta);
    m.gradient[axis] = to_device<memory_space>("seis::wave::eta_gradient", d.gradient);
  }

  if (steps_per_launch(setup_.shape) == 2) {
    m.spare_1 = Field<memory_space>("seis::wave::u spare", layout_);
    m.spare_2 = Field<memory_space>("seis::wave::u spare", layout_);
    Kokkos::deep_copy(m.spare_1.span(), 0.0f);
    Kokkos::deep_copy(m.spare_2.span(), 0.0f);
    m.phi_spare = typename Impl::Floats("seis::wave::phi spare", m.phi.size());
  }
  place_shot();

  // Halo boxes: the R planes next to each shared face are sent, the R halo planes beyond it received. The core
  // leaves at least R planes at each shared face; face layers never overlap, however thin the part. A layer is as
  // deep as the core's GPU tile along its axis (64 points across x, 8 rows, one window of planes): layers R deep
  // re-read 2R halo planes per R computed, and one-vector-wide x layers took narrow tiles; on four H100s 512^3 per
  // GPU stepped 1.010-1.014 -> 0.997-1.002 ms (1x2x2) and 1.163 -> 1.031 (2x2x1) (perf/NOTES.md 107).
  // Face layers tile the rest as the PML slabs tile the layer: z layers whole, y layers between them, x layers
  // between those.
  const int R = setup_.radius;
  const bool* nb = part_.neighbour;
  int lo[3], hi[3];
  const int depth[3] = {64, 8, R <= 4 ? 16 : 32};
  for (int a = 0; a < 3; ++a) {
    const int n = part_.size[a], d = std::max(R, depth[a]);
    lo[a] = nb[2 * a] ? std::min(d, n) : 0;
    hi[a] = nb[2 * a + 1] ? std::max(n - d, lo[a]) : n;
  }
  const int nx = part_.size[0], ny = part_.size[1], nz = part_.size[2];
  m.core = {lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]};
  m.face_layer[face_z_low] = {0, nx, 0, ny, 0, lo[2]};
  m.face_layer[face_z_high] = {0, nx, 0, ny, hi[2], nz};
  m.face_layer[face_y_low] = {0, nx, 0, lo[1], lo[2], hi[2]};
  m.face_layer[face_y_high] = {0, nx, hi[1], ny, lo[2], hi[2]};
  m.face_layer[face_x_low] = {0, lo[0], lo[1], hi[1], lo[2], hi[2]};
  m.face_layer[face_x_high] = {hi[0], nx, lo[1], hi[1], lo[2], hi[2]};
  // Face f sends the R planes inside it and receives the R beyond it.
  for (int f = 0; f < face_count; ++f) {
    const int n = part_.size[f / 2];
    const int send0 = f % 2 == 0 ? 0 : n - R, receive0 = f % 2 == 0 ? -R : n;
    const auto along = [&](int first) {
      Box b{0, nx, 0, ny, 0, nz};
      if (f / 2 == 0) b.x0 = first, b.x1 = first + R;
      if (f / 2 == 1) b.y0 = first, b.y1 = first + R;
      if (f / 2 == 2) b.z0 = first, b.z1 = first + R;
      return b;
    };
    m.send_box[f] = along(send0);
    m.receive_box[f] = along(receive0);
    require(!nb[f] || m.send_box[f].points() <= std::size_t(std::numeric_limits<int>::max()), "a halo of ",
            m.send_box[f].points(), " points (", R, " planes of a ", nx, " x ", ny, " x ", nz,
            " part) is over 2^31 - 1: split the grid over more ranks");
  }
  const bool direct = halo_ != nullptr && halo_->path() == HaloExchange::Path::direct;
  m.staged = halo_ != nullptr && !direct && !halo_->device_buffers() &&
             !Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
  std::array<std::size_t, face_count> count{};
  for (int f = 0; f < face_count; ++f) {
    if (!nb[f]) continue;
    count[f] = m.send_box[f].points();
    if (direct) continue;
    m.send[f] = typename Impl::Floats("seis::wave::halo_send", m.send_box[f].points());
    m.receive[f] = typename Impl::Floats("seis::wave::halo_receive", m.receive_box[f].points());
    if (m.staged) {
      m.send_host[f] = typename Impl::Staged("seis::wave::halo_send_host", m.send[f].size());
      m.receive_host[f] = typename Impl::Staged("seis::wave::halo_receive_host", m.receive[f].size());
    }
  }
  Kokkos::fence();
  if (direct) halo_->connect(count);
}

template <class ExecSpace>
void Simulation<ExecSpace>::place_shot(const std::vector<float>* source_traces) {
  Impl& m = *impl_;
  // Sources: the discrete delta of a point source is 1/h^3 at a grid point; off-grid positions spread it with the
  // trilinear weights. Weights of points shared by sources of one trace are summed here, so the injection needs no
  // atomics and every run adds in the same order (restarts and decompositions are bitwise). A part injects at
  // the points it holds.
  const auto local_offset = [&](int i, int j, int k) {
    return layout_.offset(i - part_.offset[0], j - part_.offset[1], k - part_.offset[2]);
  };
  std::map<index_t, std::map<int, double>> source_points;  // offset -> owner -> weight
  // The wavelet's sums keyed by (column x + nx y, z): the 3.5D shapes find the sources by column.
  std::map<std::pair<int, int>, double> by_column;
  for (std::size_t n = 0; n < setup_.sources.size(); ++n) {
    const Stencil8 st = trilinear(setup_, setup_.sources[n]);
    const int owner = source_traces != nullptr ? int(n) : 0;
    for (int c = 0; c < 8; ++c)
      if (st.w[c] != 0 && part_.owns(st.i[c], st.j[c], st.k[c])) {
        source_points[local_offset(st.i[c], st.j[c], st.k[c])][owner] += st.w[c];
        by_column[{(st.j[c] - part_.offset[1]) * layout_.nx + st.i[c] - part_.offset[0], st.k[c] - part_.offset[2]}] +=
            st.w[c];
      }
  }
  std::vector<index_t> offsets;
  std::vector<int> first{0}, owners;
  std::vector<float> weights;
  const double inv_h3 = 1.0 / (setup_.h * setup_.h * setup_.h);
  for (const auto& [offset, entries] : source_points) {
    offsets.push_back(offset);
    for (const auto& [owner, weight] : entries) {
      owners.push_back(owner);
      weights.push_back(static_cast<float>(weight * inv_h3));
    }
    first.push_back(int(owners.size()));
  }
  m.source_points = static_cast<int>(offsets.size());
  m.source_offset = to_device<memory_space>("seis::wave::source_offset", offsets);
  m.source_first = to_device<memory_space>("seis::wave::source_first", first);
  m.source_owner = to_device<memory_space>("seis::wave::source_owner", owners);
  m.source_weight = to_device<memory_space>("seis::wave::source_weight", weights);
  std::vector<float> amplitude(std::size_t(std::max(setup_.steps, 1)));
  if (source_traces != nullptr) {
    amplitude = *source_traces;
  } else {
    for (int n = 0; n < setup_.steps; ++n)
      amplitude[std::size_t(n)] = static_cast<float>(wavelet(setup_.wavelet, setup_.f0, n * setup_.dt));
  }
  m.amplitude = to_device<memory_space>("seis::wave::amplitude", amplitude);
  if (steps_per_launch(setup_.shape) == 2) {
    m.amplitude_host = amplitude;
    std::vector<int> column_first(std::size_t(layout_.nx) * layout_.ny, -1), column, z;
    std::vector<float> weight;
    for (const auto& [place, w] : by_column) {
      if (column_first[std::size_t(place.first)] < 0) column_first[std::size_t(place.first)] = int(column.size());
      column.push_back(place.first);
      z.push_back(place.second);
      weight.push_back(static_cast<float>(w * inv_h3));
    }
    m.column_first = to_device<memory_space>("seis::wave::column_first", column_first);
    m.column_source_column = to_device<memory_space>("seis::wave::column_source_column", column);
    m.column_source_z = to_device<memory_space>("seis::wave::column_source_z", z);
    m.column_source_weight = to_device<memory_space>("seis::wave::column_source_weight", weight);
    m.column_sources = int(column.size());
  }

  offsets.clear();
  weights.clear();
  // Receivers: each corner is recorded by the part that holds it (offset -1 elsewhere).
  for (const Point& p : setup_.receivers) {
    const Stencil8 st = trilinear(setup_, p);
    for (int c = 0; c < 8; ++c) {
      const bool held = part_.owns(st.i[c], st.j[c], st.k[c]);
      offsets.push_back(held ? local_offset(st.i[c], st.j[c], st.k[c]) : -1);
      weights.push_back(static_cast<float>(st.w[c]));
    }
  }
  m.receiver_offset = to_device<memory_space>("seis::wave::receiver_offset", offsets);
  m.receiver_weight = to_device<memory_space>("seis::wave::receiver_weight", weights);
  m.traces = typename Impl::Floats("seis::wave::traces",
                                   std::max<std::size_t>(setup_.receivers.size() * 8 * std::size_t(setup_.steps), 1));
}

template <class ExecSpace>
void Simulation<ExecSpace>::new_shot(const Acquisition& shot) {
  restart_shot(shot, nullptr);
}

template <class ExecSpace>
void Simulation<ExecSpace>::new_shot(const std::vector<Point>& sources, const std::vector<float>& source_traces,
                                     const std::vector<Point>& receivers) {
  require(steps_per_launch(setup_.shape) == 1, "sources with traces of their own: the ", to_string(setup_.shape),
          " kernel's fused two steps inject one wavelet; choose a one-step kernel (tile)");
  const std::size_t samples = sources.size() * std::size_t(setup_.steps);
  require(source_traces.size() == samples, "source traces hold ", source_traces.size(), " samples, ", sources.size(),
          " sources x ", setup_.steps, " steps need ", samples);
  restart_shot(Acquisition{sources, receivers, setup_.wavelet, setup_.f0}, &source_traces);
}

template <class ExecSpace>
void Simulation<ExecSpace>::restart_shot(const Acquisition& shot, const std::vector<float>* source_traces) {
  // The shot against the grid alone: the Nyquist check of f0 against dt is the run's (validate).
  Setup alone;
  static_cast<Grid&>(alone) = setup_;
  static_cast<Acquisition&>(alone) = shot;
  validate_shot(alone);
  static_cast<Acquisition&>(setup_) = shot;
  Impl& m = *impl_;
  Kokkos::fence();
  for (auto* field : {&m.u, &m.u_prev, &m.spare_1, &m.spare_2})
    if (field->span().size() > 0) Kokkos::deep_copy(field->span(), 0.0f);
  for (auto* floats : {&m.phi, &m.phi_spare})
    if (floats->size() > 0) Kokkos::deep_copy(*floats, 0.0f);
  place_shot(source_traces);
  m.image = {};
  step_ = 0;
  halo_seconds_ = 0;
  Kokkos::fence();
}

template <class ExecSpace>
Simulation<ExecSpace>::~Simulation() = default;

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
      finish_step();
    }
  }
  impl_->instances[0].fence();
}

template <class ExecSpace>
void Simulation<ExecSpace>::record_receivers(const float* u, int n) {
  Impl& m = *impl_;
  record(m.instances[0], m.traces, m.receiver_offset, m.receiver_weight, 8 * int(setup_.receivers.size()), setup_.steps,
         u, n);
}

template <class ExecSpace>
void Simulation<ExecSpace>::two_steps() {
  Impl& m = *impl_;
  const ExecSpace& main = m.instances[0];
  record_receivers(m.u.data(), step_);
  ShapeStep s{m.u.data(), layout_, m.coefficients, m.arrays(pml_), 0.0f, setup_.launch, {}};
  s.two.u_1 = m.spare_1.data();
  s.two.u_2 = m.spare_2.data();
  s.two.phi_2 = m.phi_spare.data();
  s.two.sources = {m.column_first.data(), m.column_source_column.data(), m.column_source_z.data(),
                   m.column_source_weight.data(), m.column_sources};
  s.two.amplitude_1 = m.amplitude_host[std::size_t(step_)];
  s.two.amplitude_2 = m.amplitude_host[std::size_t(step_ + 1)];
  const Box grid{0, layout_.nx, 0, layout_.ny, 0, layout_.nz};
  launch_shape(main, setup_.shape, setup_.radius, Region::both, s, &grid, 1);
  compat::check_last_launch("wave step (two steps)");
  record_receivers(m.spare_1.data(), step_ + 1);
  // Steps n + 1 and n + 2 become u_prev and u; the fields of steps n - 1 and n the spares.
  std::swap(m.u_prev, m.spare_1);
  std::swap(m.u, m.spare_2);
  std::swap(m.phi, m.phi_spare);
  step_ += 2;
}

template <class ExecSpace>
void Simulation<ExecSpace>::begin_step() {
  require(step_ < setup_.steps, "begin_step: the run's ", setup_.steps, " steps are done");
  Impl& m = *impl_;
  record_receivers(m.u.data(), step_);
  if (m.image.weight != nullptr && setup_.shape != Shape::tile) add_image(m.instances[0], m.image, layout_, m.u.data());
  if (halo_ == nullptr) {
    step_region(m, setup_, layout_, pml_, m.core, m.instances[0]);
    return;
  }
  // Each shared face is packed on its own instance once the previous step is done, and leaves as soon as it is
  // packed: a direct transport's pack writes into the neighbour's memory, then marks it there on the device; a
  // message transport's waits for its pack (and its copy to the host) only after the core has been enqueued.
  const ProfilingRegion sending("seis::wave::halo_send");
  Kokkos::Timer timer;
  const bool direct = halo_->path() == HaloExchange::Path::direct;
  m.instances.fork();
  for (int f = 0; f < face_count; ++f) {
    if (!part_.neighbour[f]) continue;
    const ExecSpace& exec = m.instances[1 + slab_count + f];
    copy_box<true>(exec, m.u.data(), layout_, m.send_box[f], direct ? halo_->outbox(f, step_) : m.send[f].data());
    if (direct) {
      if constexpr (!is_gpu_space<ExecSpace>()) exec.fence();
      halo_->posted(f, step_, compat::native_stream(exec));
    } else if (m.staged) {
      Kokkos::deep_copy(exec, m.send_host[f], m.send[f]);
    }
  }
  halo_seconds_ += timer.seconds();
  step_region(m, setup_, layout_, pml_, m.core, m.instances[0]);
  if (direct) return;
  timer.reset();
  std::array<float*, face_count> send{}, receive{};
  std::array<std::size_t, face_count> count{};
  for (int f = 0; f < face_count; ++f) {
    if (!part_.neighbour[f]) continue;
    m.instances[1 + slab_count + f].fence();
    send[f] = m.staged ? m.send_host[f].data() : m.send[f].data();
    receive[f] = m.staged ? m.receive_host[f].data() : m.receive[f].data();
    count[f] = m.send_box[f].points();
  }
  halo_->start(send, receive, count);
  halo_seconds_ += timer.seconds();
}

template <class ExecSpace>
void Simulation<ExecSpace>::finish_step() {
  Impl& m = *impl_;
  const ExecSpace& main = m.instances[0];
  if (halo_ != nullptr) {
    // The halos are unpacked and the face layers updated on their own instance, beside the core where the strategy
    // launches on one instance (unified, two): they read and write no point the core does, and wait only for the
    // halos; the step ends once both are done. The seven strategy forks from instance 0 and stays there.
    const bool beside = setup_.strategy != Strategy::seven;
    const ExecSpace& boundary = beside ? m.instances[boundary_instance] : main;
    {
      const ProfilingRegion receiving("seis::wave::halo_receive");
      Kokkos::Timer timer;
      const bool direct = halo_->path() == HaloExchange::Path::direct;
      if (!direct) halo_->finish();
      for (int f = 0; f < face_count; ++f) {
        if (!part_.neighbour[f]) continue;
        if (direct) halo_->arrived(f, step_, compat::native_stream(boundary));
        if (m.staged) Kokkos::deep_copy(boundary, m.receive[f], m.receive_host[f]);
        copy_box<false>(boundary, m.u.data(), layout_, m.receive_box[f],
                        direct ? halo_->inbox(f, step_) : m.receive[f].data());
      }
      halo_seconds_ += timer.seconds();
    }
    for (const Box& layer : m.face_layer)
      if (layer.points() > 0) step_region(m, setup_, layout_, pml_, layer, boundary);
    if (beside) m.instances.order(0, boundary_instance);
  }
  compat::check_last_launch("wave step");
  {
    const auto n = std::size_t(step_), steps = std::size_t(setup_.steps);
    const auto offset = m.source_offset;
    const auto first = m.source_first;
    const auto owner = m.source_owner;
    const auto weight = m.source_weight;
    const auto amplitude = m.amplitude;
    const float* q = m.q.data();
    float* next = m.u_prev.data();
    Kokkos::parallel_for(
        "seis::wave::inject", Kokkos::RangePolicy<ExecSpace>(main, 0, m.source_points), KOKKOS_LAMBDA(const int p) {
          const index_t o = offset(p);
          float sum = 0.0f;
          for (int e = first(p); e < first(p + 1); ++e)
            sum += weight(e) * q[o] * amplitude(std::size_t(owner(e)) * steps + n);
          next[o] += sum;
        });
  }
  std::swap(m.u, m.u_prev);
  ++step_;
  m.image = {};
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
  s.u = to_host_vector(m.u.span(), layout_.size);
  s.u_prev = to_host_vector(m.u_prev.span(), layout_.size);
  s.phi = to_host_vector(m.phi, pml_.stored());
  s.traces = corner_traces();
  return s;
}

template <class ExecSpace>
void Simulation<ExecSpace>::restore(const State& s) {
  Impl& m = *impl_;
  const std::size_t traces = setup_.receivers.size() * 8 * std::size_t(setup_.steps);
  require(s.step >= 0 && s.step <= setup_.steps, "checkpoint step ", s.step, " is outside this run's 0..",
          setup_.steps);
  require(s.u.size() == layout_.size && s.u_prev.size() == layout_.size, "checkpoint fields hold ", s.u.size(),
          " floats, this run's layout ", layout_.size);
  require(s.phi.size() == pml_.stored(), "checkpoint PML holds ", s.phi.size(), " floats, this run's ", pml_.stored());
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
int Simulation<ExecSpace>::keep() {
  Impl& m = *impl_;
  const std::size_t traces = setup_.receivers.size() * 8 * std::size_t(setup_.steps);
  typename Impl::Kept k{typename Impl::Floats("seis::wave::kept u", layout_.size),
                        typename Impl::Floats("seis::wave::kept u_prev", layout_.size),
                        typename Impl::Floats("seis::wave::kept phi", pml_.stored()),
                        typename Impl::Floats("seis::wave::kept traces", traces), step_};
  const ExecSpace& main = m.instances[0];
  Kokkos::deep_copy(main, k.u, m.u.span());
  Kokkos::deep_copy(main, k.u_prev, m.u_prev.span());
  Kokkos::deep_copy(main, k.phi, Kokkos::subview(m.phi, std::make_pair(std::size_t(0), pml_.stored())));
  Kokkos::deep_copy(main, k.traces, Kokkos::subview(m.traces, std::make_pair(std::size_t(0), traces)));
  m.kept.push_back(k);
  return int(m.kept.size()) - 1;
}

template <class ExecSpace>
void Simulation<ExecSpace>::return_to(int slot) {
  Impl& m = *impl_;
  require(slot >= 0 && std::size_t(slot) < m.kept.size(), "kept state ", slot, " does not exist (", m.kept.size(),
          " kept)");
  const typename Impl::Kept& k = m.kept[std::size_t(slot)];
  const ExecSpace& main = m.instances[0];
  Kokkos::deep_copy(main, m.u.span(), k.u);
  Kokkos::deep_copy(main, m.u_prev.span(), k.u_prev);
  Kokkos::deep_copy(main, Kokkos::subview(m.phi, std::make_pair(std::size_t(0), k.phi.size())), k.phi);
  Kokkos::deep_copy(main, Kokkos::subview(m.traces, std::make_pair(std::size_t(0), k.traces.size())), k.traces);
  step_ = k.step;
}

template <class ExecSpace>
void Simulation<ExecSpace>::drop_kept() {
  impl_->kept.clear();
}

template <class ExecSpace>
std::size_t Simulation<ExecSpace>::kept_bytes() const {
  return (2 * layout_.size + pml_.stored() + setup_.receivers.size() * 8 * std::size_t(setup_.steps)) * sizeof(float);
}

template <class ExecSpace>
Kokkos::View<const float*, typename ExecSpace::memory_space> Simulation<ExecSpace>::field() const {
  return impl_->u.span();
}

template <class ExecSpace>
Kokkos::View<const float*, typename ExecSpace::memory_space> Simulation<ExecSpace>::previous_field() const {
  return impl_->u_prev.span();
}

template <class ExecSpace>
void Simulation<ExecSpace>::require_one_part(const char* what) const {
  require(halo_ == nullptr && steps_per_launch(setup_.shape) == 1, what, " needs one part and a one-step kernel (",
          to_string(setup_.shape), ")");
}

template <class ExecSpace>
Kokkos::View<float*, typename ExecSpace::memory_space> Simulation<ExecSpace>::field_to_add_to() {
  require_one_part("a term added between steps");
  return impl_->u.span();
}

template <class ExecSpace>
Kokkos::View<float*, typename ExecSpace::memory_space> Simulation<ExecSpace>::layer_memory() {
  require_one_part("a layer memory term of a driver's");
  return impl_->phi;
}

template <class ExecSpace>
void Simulation<ExecSpace>::correlate_next_step(const Kokkos::View<const float*, memory_space>& weight,
                                                const Kokkos::View<float*, memory_space>& image,
                                                const Kokkos::View<float*, memory_space>& squares) {
  require_one_part("an imaging condition in the step");
  for (const std::size_t size : {weight.size(), image.size(), squares.size()})
    require(size == layout_.size, "a field of the imaging condition holds ", size, " floats, the layout ",
            layout_.size);
  require(step_ < setup_.steps, "correlate_next_step: the run's ", setup_.steps, " steps are done");
  impl_->image = {weight.data(), image.data(), squares.data()};
}

template <class ExecSpace>
typename Simulation<ExecSpace>::StepModel Simulation<ExecSpace>::step_model() const {
  const Impl& m = *impl_;
  return {m.q.span(), {m.eta[0], m.eta[1], m.eta[2]}, {m.gradient[0], m.gradient[1], m.gradient[2]}};
}

template <class ExecSpace>
std::vector<float> Simulation<ExecSpace>::corner_traces() const {
  return to_host_vector(impl_->traces, setup_.receivers.size() * 8 * std::size_t(setup_.steps));
}

template <class ExecSpace>
std::vector<float> Simulation<ExecSpace>::traces() const {
  return sum_corners(corner_traces(), setup_.receivers.size(), setup_.steps, step_);
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
float Simulation<ExecSpace>::largest_magnitude() const {
  const Impl& m = *impl_;
  const float* u = m.u.data();
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
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(m.instances[0], 0, workers),
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
  Kokkos::deep_copy(m.instances[0], m.largest_host, largest);
  m.instances[0].fence();
  float result = 0;
  for (std::size_t w = 0; w < m.largest_host.size(); ++w) result = std::max(result, m.largest_host(w));
  return result;
}

template <class ExecSpace>
double Simulation<ExecSpace>::copy_bandwidth(int repeats, std::size_t bytes) {
  require(step_ == 0, "copy_bandwidth: measured before the first step only (step ", step_, ")");
  Impl& m = *impl_;
  const ExecSpace& main = m.instances[0];
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
    const double gb_per_s = measure(m.u, m.u_prev);
    Kokkos::deep_copy(m.u.span(), 0.0f);
    Kokkos::deep_copy(m.u_prev.span(), 0.0f);
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
  const double pml_points = static_cast<double>(pml_.points());
  const double inner = static_cast<double>(layout_.interior_points()) - pml_points;
  if (steps_per_launch(setup_.shape) == 2) return 10.0 * inner + 14.0 * pml_points;
  return 16.0 * inner + 24.0 * pml_points;
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
  const double first_step =
      covered(layout_.nx, tile_.tx) * covered(layout_.ny, tile_.ty) * covered(layout_.nz, tile_.nw);
  return (first_step + points) / (2.0 * points);
}

}  // namespace seis::wave

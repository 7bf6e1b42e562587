#pragma once
// The halo exchange of a part that shares faces with its neighbours, seen from the step: which points are the
// core (updated while the halos travel) and which the face layers (after they arrive), and the planes (as many as
// the step reads beyond a point: halo_depth) packed from the fields an exchange carries (u; the TTI step's p and r,
// then its rotated derivatives) for each neighbour and unpacked into their halos from it,
// through the part's HaloExchange (a message transport's buffers on the device, staged through page-locked host memory
// where the transport cannot read the device's; a direct transport owns its buffers).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>

#include "seis/core/compat.hpp"
#include "seis/core/error.hpp"
#include "seis/core/fast_divisor.hpp"
#include "seis/core/profiling_region.hpp"
#include "seis/kernels/tile_engine.hpp"
#include "seis/wave/pml.hpp"
#include "seis/wave/subdomain.hpp"

namespace seis::wave {

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

// The step's execution-space instances: 0 runs the step; 1 + s the seven strategy's slab s; 1 + slab_count + f
// packs the halo of face f; the last (boundary_instance) unpacks the halos and updates the face layers beside the
// core. The halo's instances are urgent: on four H100s their layers otherwise ran after most of the core
// (perf/NOTES.md 112).
inline constexpr int halo_instance = 1 + slab_count;
inline constexpr int boundary_instance = 1 + slab_count + face_count;
inline constexpr int step_instances = boundary_instance + 1;

// Copies the points of box `b` (under 2^31: checked by HaloDriver) between a field and a buffer (x fastest, then
// y, then z). A point's place by multiplies (FastDivisor), not 64-bit divisions, which cost GPUs about 70
// instructions each.
template <bool ToBuffer, class ExecSpace>
void copy_box(const ExecSpace& exec, float* field, const FieldLayout& L, const Box& b, float* buffer) {
  const int x0 = b.x0, y0 = b.y0, z0 = b.z0;
  const FastDivisor per_row(std::max(b.x1 - x0, 1)), per_plane(std::max(b.y1 - y0, 1));
  Kokkos::parallel_for(
      ToBuffer ? "seis::wave::halo_pack" : "seis::wave::halo_unpack",
      Kokkos::RangePolicy<ExecSpace>(exec, 0, int(b.points())), KOKKOS_LAMBDA(const int p) {
        const DivMod x = per_row.split(p), yz = per_plane.split(x.quotient);
        float& point = field[L.offset(x0 + x.remainder, y0 + yz.remainder, z0 + yz.quotient)];
        if (ToBuffer)  // not constexpr: nvcc's extended lambdas cannot first-capture inside one
          buffer[p] = point;
        else
          point = buffer[p];
      });
}

template <class ExecSpace>
class HaloDriver {
 public:
  using Memory = typename ExecSpace::memory_space;
  using Floats = Kokkos::View<float*, Memory>;
  using Staged = Kokkos::View<float*, typename StagingSpace<Memory>::type>;

  // `depth` planes of each of `fields` fields are exchanged at each shared face; `window` planes are the z depth of
  // the core's GPU tiles. `halo` (needed when the part shares a face; null otherwise) must outlive the driver.
  HaloDriver(const Subdomain& part, const FieldLayout& layout, int depth, int window, int fields, HaloExchange* halo)
      : part_(part), layout_(layout), halo_(halo), fields_(fields) {
    bool shares_face = false;
    for (bool n : part.neighbour) shares_face = shares_face || n;
    require(!shares_face || halo != nullptr, "a part that shares a face needs a halo exchange");
    // The R planes (R: the depth) next to each shared face are sent, the R halo planes beyond it received. The core
    // leaves at least R planes at each shared face; face layers never overlap, however thin the part. A layer is as
    // deep as the core's GPU tile along its axis (64 points across x, 8 rows, one window of planes): layers R deep
    // re-read 2R halo planes per R computed, and one-vector-wide x layers took narrow tiles; on four H100s 512^3 per
    // GPU stepped 1.010-1.014 -> 0.997-1.002 ms (1x2x2) and 1.163 -> 1.031 (2x2x1) (perf/NOTES.md 107). Face layers
    // tile the rest as the PML slabs tile the layer: z layers whole, y layers between them, x layers between those.
    require(fields == 1 || fields == 2, "a halo exchange carries 1 or 2 fields, not ", fields);
    const int R = depth;
    const bool* nb = part.neighbour;
    int lo[3], hi[3];
    const int tile_depth[3] = {64, 8, window};
    for (int a = 0; a < 3; ++a) {
      const int n = part.size[a], d = std::max(R, tile_depth[a]);
      lo[a] = nb[2 * a] ? std::min(d, n) : 0;
      hi[a] = nb[2 * a + 1] ? std::max(n - d, lo[a]) : n;
    }
    const int nx = part.size[0], ny = part.size[1], nz = part.size[2];
    core_ = {lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]};
    face_layer_[face_z_low] = {0, nx, 0, ny, 0, lo[2]};
    face_layer_[face_z_high] = {0, nx, 0, ny, hi[2], nz};
    face_layer_[face_y_low] = {0, nx, 0, lo[1], lo[2], hi[2]};
    face_layer_[face_y_high] = {0, nx, hi[1], ny, lo[2], hi[2]};
    face_layer_[face_x_low] = {0, lo[0], lo[1], hi[1], lo[2], hi[2]};
    face_layer_[face_x_high] = {hi[0], nx, lo[1], hi[1], lo[2], hi[2]};
    // Face f sends the R planes inside it and receives the R beyond it.
    for (int f = 0; f < face_count; ++f) {
      const int n = part.size[f / 2];
      const int send0 = f % 2 == 0 ? 0 : n - R, receive0 = f % 2 == 0 ? -R : n;
      const auto along = [&](int first) {
        Box b{0, nx, 0, ny, 0, nz};
        if (f / 2 == 0) b.x0 = first, b.x1 = first + R;
        if (f / 2 == 1) b.y0 = first, b.y1 = first + R;
        if (f / 2 == 2) b.z0 = first, b.z1 = first + R;
        return b;
      };
      send_box_[f] = along(send0);
      receive_box_[f] = along(receive0);
      require(!nb[f] || send_box_[f].points() * std::size_t(fields) <= std::size_t(std::numeric_limits<int>::max()),
              "a halo of ", send_box_[f].points() * std::size_t(fields), " floats (", R, " planes of a ", nx, " x ", ny,
              " x ", nz, " part, ", fields, " fields) is over 2^31 - 1: split the grid over more ranks");
    }
    const bool direct = halo != nullptr && halo->path() == HaloExchange::Path::direct;
    staged_ = halo != nullptr && !direct && !halo->device_buffers() &&
              !Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible;
    std::array<std::size_t, face_count> count{};
    for (int f = 0; f < face_count; ++f) {
      if (!nb[f]) continue;
      count[f] = send_box_[f].points() * std::size_t(fields);
      if (direct) continue;
      send_[f] = Floats("seis::wave::halo_send", count[f]);
      receive_[f] = Floats("seis::wave::halo_receive", count[f]);
      if (staged_) {
        send_host_[f] = Staged("seis::wave::halo_send_host", send_[f].size());
        receive_host_[f] = Staged("seis::wave::halo_receive_host", receive_[f].size());
      }
    }
    Kokkos::fence();
    if (direct) halo->connect(count);
  }

  bool exchanges() const { return halo_ != nullptr; }
  // The points updated while the halos travel: the whole part where it shares no face.
  const Box& core() const { return core_; }
  const Box* face_layers() const { return face_layer_; }
  // Host seconds spent moving halos (packing, staging, waiting for the transport).
  double seconds() const { return seconds_; }
  void reset_seconds() { seconds_ = 0; }

  // Each shared face of the fields (as many as the driver carries) of exchange `step` (the step's number, or a
  // count that alternates in parity as steps do: a direct transport's buffers go by it) packed on its own instance
  // once the step's previous work is done (the caller has forked them from instance 0), and sent as soon as it is
  // packed: a direct transport's pack writes into the neighbour's memory, then marks it there on the device; a
  // message transport's waits in start().
  void send(const compat::Instances<ExecSpace>& instances, const std::array<float*, 2>& fields, int step) {
    Kokkos::Timer timer;
    const bool direct = halo_->path() == HaloExchange::Path::direct;
    for (int f = 0; f < face_count; ++f) {
      if (!part_.neighbour[f]) continue;
      const ExecSpace& exec = instances[halo_instance + f];
      float* buffer = direct ? halo_->outbox(f, step) : send_[f].data();
      for (int c = 0; c < fields_; ++c)
        copy_box<true>(exec, fields[std::size_t(c)], layout_, send_box_[f], buffer + send_box_[f].points() * c);
      if (direct) {
        if constexpr (!is_gpu_space<ExecSpace>()) exec.fence();
        halo_->posted(f, step, compat::native_stream(exec));
      } else if (staged_) {
        Kokkos::deep_copy(exec, send_host_[f], send_[f]);
      }
    }
    seconds_ += timer.seconds();
  }

  // A message transport's exchange, once the packs are done (called after the core's update is enqueued).
  void start(const compat::Instances<ExecSpace>& instances) {
    if (halo_->path() == HaloExchange::Path::direct) return;
    Kokkos::Timer timer;
    std::array<float*, face_count> send{}, receive{};
    std::array<std::size_t, face_count> count{};
    for (int f = 0; f < face_count; ++f) {
      if (!part_.neighbour[f]) continue;
      instances[halo_instance + f].fence();
      send[f] = staged_ ? send_host_[f].data() : send_[f].data();
      receive[f] = staged_ ? receive_host_[f].data() : receive_[f].data();
      count[f] = send_box_[f].points() * std::size_t(fields_);
    }
    halo_->start(send, receive, count);
    seconds_ += timer.seconds();
  }

  // The neighbours' planes of exchange `step` into the fields' halos, on `exec`.
  void receive(const ExecSpace& exec, const std::array<float*, 2>& fields, int step) {
    const ProfilingRegion receiving("seis::wave::halo_receive");
    Kokkos::Timer timer;
    const bool direct = halo_->path() == HaloExchange::Path::direct;
    if (!direct) halo_->finish();
    for (int f = 0; f < face_count; ++f) {
      if (!part_.neighbour[f]) continue;
      if (direct) halo_->arrived(f, step, compat::native_stream(exec));
      if (staged_) Kokkos::deep_copy(exec, receive_[f], receive_host_[f]);
      float* buffer = direct ? halo_->inbox(f, step) : receive_[f].data();
      for (int c = 0; c < fields_; ++c)
        copy_box<false>(exec, fields[std::size_t(c)], layout_, receive_box_[f], buffer + receive_box_[f].points() * c);
    }
    seconds_ += timer.seconds();
  }

 private:
  Subdomain part_;
  FieldLayout layout_;
  HaloExchange* halo_ = nullptr;
  int fields_ = 1;  // at most 2
  double seconds_ = 0;
  Box core_;
  Box face_layer_[face_count];
  Box send_box_[face_count], receive_box_[face_count];
  Floats send_[face_count], receive_[face_count];
  Staged send_host_[face_count], receive_host_[face_count];
  bool staged_ = false;
};

}  // namespace seis::wave

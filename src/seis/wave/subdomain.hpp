#pragma once
// The part of a Setup's grid that one Simulation holds, for domain decomposition over x, y and z, and the exchange
// of its R-plane halos with the parts beside it. Plain host data and an interface: the transports live in
// seis/mpi, tests connect parts in one process.
#include <array>
#include <cstddef>
#include <string>

namespace seis::wave {

struct Setup;
struct Grid;

// The six faces a part may share with a neighbour. A face's opposite is f ^ 1: what leaves through face f arrives
// at the neighbour's face f ^ 1.
enum Face : int { face_x_low, face_x_high, face_y_low, face_y_high, face_z_low, face_z_high, face_count };
const char* to_string(Face f);

// x splits fall on multiples of this many points, so that a part's rows start where the undecomposed grid's
// 128-byte lines do: every vector, phi row and launch line of the step then holds the same points as in the
// undecomposed run, and the parts compute it bit for bit (seis/wave/pml.hpp's x_slab_line).
inline constexpr int x_split_granule = 32;

struct Subdomain {
  int global[3] = {0, 0, 0};  // the whole grid: nx, ny, nz
  int offset[3] = {0, 0, 0};  // global index of local point (0, 0, 0)
  int size[3] = {0, 0, 0};    // local interior points
  bool neighbour[face_count] = {};

  bool whole() const { return size[0] == global[0] && size[1] == global[1] && size[2] == global[2]; }
  // Does this part's interior hold global point (i, j, k)?
  bool owns(int i, int j, int k) const {
    return i >= offset[0] && i < offset[0] + size[0] && j >= offset[1] && j < offset[1] + size[1] && k >= offset[2] &&
           k < offset[2] + size[2];
  }
  // Does this part's interior hold all of b's?
  bool contains(const Subdomain& b) const {
    for (int d = 0; d < 3; ++d)
      if (b.offset[d] < offset[d] || b.offset[d] + b.size[d] > offset[d] + size[d]) return false;
    return true;
  }
  std::size_t points() const { return std::size_t(size[0]) * std::size_t(size[1]) * std::size_t(size[2]); }
};

// Parts along x, y and z.
struct Decomposition {
  int parts[3] = {1, 1, 1};
  int count() const { return parts[0] * parts[1] * parts[2]; }
  std::string text() const;  // "PXxPYxPZ"
};

// The undecomposed grid of a setup, or of nx x ny x nz points.
Subdomain whole_grid(const Grid& g);
Subdomain whole_grid(int nx, int ny, int nz);

// Part `coord` of a decomposition. y and z: sizes differ by at most one point, the larger ones first; x: whole
// granules of x_split_granule points dealt the same way, the last part taking the remainder. Refuses (naming the
// values) splits that leave a part thinner than the stencil radius, which its halo exchange needs, or an x part
// without a whole granule.
Subdomain split_grid(const Setup& s, const Decomposition& d, const std::array<int, 3>& coord);

// The default decomposition of an nx x ny x nz grid over `ranks`: x whole (its splits cost the x-contiguous rows
// their length), y and z split so that the faces the parts share (the halo surface, what every step exchanges)
// are the smallest, among the splits that leave each part at least `radius` thick; of equal surfaces, the one with
// more parts along z. On a 512 x 1024 x 512 grid over 2 ranks: 1x2x1 (faces of 512 x 512), not 1x1x2 (512 x 1024).
Decomposition default_decomposition(int ranks, int nx, int ny, int nz, int radius);

// "PXxPYxPZ" (parts along x, y and z) or "PYxPZ" (x whole), each >= 1; throws seis::InvalidArgument naming the text.
Decomposition parse_decomposition(const std::string& text);

// Moves the R planes next to each shared face between parts, in one of two ways (path()):
//  - messages: start() hands the transport every face's packed planes (host memory, or device memory where the
//    transport reads it: device_buffers()), finish() returns once every receive buffer is filled and every send
//    buffer may be reused, or throws (naming the face and the wait) when that does not happen in bounded time;
//  - direct: the transport maps the neighbours' memory. connect() allocates this part's receive buffers (two per
//    shared face, used by alternate steps) and maps the neighbours'; the part packs step n's planes for face f
//    straight into outbox(f, n) (the neighbour's inbox(f ^ 1, n)), then calls posted(f, n, stream) with the stream
//    (cudaStream_t / hipStream_t; null on host backends, which have finished the pack) that packed them;
//    arrived(f, n, stream) makes `stream` wait, on the device where there is one, until the neighbour's planes are
//    in inbox(f, n), throwing when they do not come in bounded time.
// Buffers are laid out as the part packs them (x fastest, then y, then z, over the face's R planes) and hold
// `count[f]` floats for face f; faces without a neighbour have count 0.
class HaloExchange {
 public:
  enum class Path { messages, direct };
  virtual ~HaloExchange() = default;
  virtual Path path() const { return Path::messages; }
  // What carries the halos, for reports: "host memory", "host-staged", "GPU-aware MPI", "CUDA IPC", ...
  virtual std::string transport() const = 0;

  virtual void start(const std::array<float*, face_count>& send, const std::array<float*, face_count>& receive,
                     const std::array<std::size_t, face_count>& count);
  virtual void finish();
  // Can the message transport read and write device memory directly (GPU-aware MPI)? Otherwise buffers are host.
  virtual bool device_buffers() const { return false; }

  virtual void connect(const std::array<std::size_t, face_count>& count);
  virtual float* inbox(int face, int step);
  virtual float* outbox(int face, int step);
  virtual void posted(int face, int step, void* stream);
  virtual void arrived(int face, int step, void* stream);
};

}  // namespace seis::wave

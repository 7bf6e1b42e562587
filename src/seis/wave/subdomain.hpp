#pragma once
// The part of a Setup's grid that one Simulation holds, for domain decomposition over y and z (x whole, so every
// row's vector lanes fall as in the undecomposed run), and the exchange of its R-plane halos with the parts beside
// it. Plain host data and an interface: the MPI transport lives in seis/mpi, tests connect parts in one process.
#include <array>
#include <cstddef>
#include <string>

namespace seis::wave {

struct Setup;

// The four faces a part may share with a neighbour: y low, y high, z low, z high.
enum Face : int { face_y_low, face_y_high, face_z_low, face_z_high, face_count };
const char* to_string(Face f);

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
};

// The undecomposed grid of a setup.
Subdomain whole_grid(const Setup& s);

// Part (cy, cz) of a py x pz split over y and z: sizes differ by at most one point, the larger ones first. Refuses
// (naming the values) splits that leave a part thinner than the stencil radius, which its halo exchange needs.
Subdomain split_grid(const Setup& s, int py, int pz, int cy, int cz);

// "PYxPZ" (both >= 1) into py and pz; throws seis::InvalidArgument naming the text.
void parse_decomposition(const std::string& text, int& py, int& pz);

// Moves the R planes next to each shared face between parts. Buffers are laid out as the part packs them
// (x fastest, then the face's other in-plane axis, then the plane index from the face inwards) and hold
// `count[f]` floats for face f; faces without a neighbour have count 0. start() may return before the data has
// moved; finish() returns once every receive buffer is filled and every send buffer may be reused, or throws
// (naming the face and the wait) when that does not happen in bounded time.
class HaloExchange {
 public:
  virtual ~HaloExchange() = default;
  virtual void start(const std::array<float*, face_count>& send, const std::array<float*, face_count>& receive,
                     const std::array<std::size_t, face_count>& count) = 0;
  virtual void finish() = 0;
  // Can the transport read and write device memory directly (GPU-aware MPI)? Otherwise buffers are host memory.
  virtual bool device_buffers() const { return false; }
};

}  // namespace seis::wave

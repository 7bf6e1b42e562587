#pragma once
// The processes of one seis-wave run and their Cartesian grid over (x, y, z). Two implementations behind one header:
// world_mpi.cpp (Open MPI, built with SEIS_MPI=ON) and world_serial.cpp (one process), so the application has one
// code path. Host-only: compiled by the plain C++ compiler in every build, never by a device compiler.
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "seis/core/error.hpp"
#include "seis/wave/subdomain.hpp"

namespace seis::mpi {

class World {
 public:
  // MPI_Init_thread (funneled: only the main thread calls MPI). From here to MPI_Finalize, a rank that waits longer
  // than `wait_limit_seconds` in any call needing the other ranks (halo waits bound themselves) ends its process,
  // naming the call, and the launcher ends the rest: a stalled or lost rank never hangs the job.
  World(int& argc, char**& argv, double wait_limit_seconds = 300);
  ~World();  // MPI_Finalize
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // The ranks with the same `color`, in this world's order (MPI_Comm_split; collective): a world of their own for
  // reductions, grids and halos. MPI stays up until the World that started it ends.
  std::unique_ptr<World> split(int color) const;

  int rank() const { return rank_; }
  int size() const { return size_; }
  int local_rank() const { return local_rank_; }  // among the ranks on this node
  int local_size() const { return local_size_; }
  static bool enabled();         // built with MPI
  static std::string library();  // the MPI library's version line, or "none"
  static bool gpu_aware();       // can the library move CUDA device memory (Open MPI's MPIX_Query_cuda_support)?

  // Ends every rank of the run with `code` (MPI_Abort), or this process where there is one.
  [[noreturn]] void abort(int code) const;
  void barrier() const;
  // A barrier without the wait limit, where the others are still working rather than stalled (a survey's last shots).
  void await_all() const;
  double max(double value) const;
  double sum(double value) const;
  int min(int value) const;
  int max(int value) const;
  // Elementwise sum over all ranks into rank 0's `data` (the others' is left as it was).
  void reduce_sum(std::vector<float>& data) const;
  // `root`'s text, values (resized on the others) or value on every rank.
  void broadcast(std::string& text, int root = 0) const;
  void broadcast(std::vector<float>& values, int root = 0) const;
  void broadcast(double& value, int root = 0) const;
  // What `read` returns on one rank of each node, on every rank: a file is read once per node, not once per rank.
  // Its exception, if it throws, is thrown on every rank of that node.
  std::vector<float> read_once_per_node(const std::function<std::vector<float>()>& read) const;

  struct Handle;  // the communicator (world_mpi.cpp)
  const Handle& handle() const { return *handle_; }

 private:
  World() = default;
  std::shared_ptr<Handle> handle_;
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
};

// A counter that every rank of a world takes its next value from without the holder's help (MPI one-sided
// fetch-and-add in rank 0's memory; passive on one node, where Open MPI maps it): work is dealt to whichever rank
// asks first, however busy rank 0 is.
class SharedCounter {
 public:
  explicit SharedCounter(const World& world);  // collective
  ~SharedCounter();
  SharedCounter(const SharedCounter&) = delete;
  SharedCounter& operator=(const SharedCounter&) = delete;
  int next();  // 0, 1, 2, ... over every caller

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// How halos travel between ranks (--halo-transport):
//   direct   each rank writes its planes into its neighbours' memory, mapped through the vendor runtime (CUDA or HIP
//            IPC, GPU to GPU over NVLink or PCIe) or, on host backends, an MPI shared-memory window; every rank on
//            one node;
//   mpi      MPI messages; from device memory only where the library is GPU-aware;
//   staged   MPI messages through page-locked host copies (GPU backends; host backends send their memory as is);
//   automatic: direct where every rank shares a node and the GPUs map each other, else mpi where it can read the
//   device's memory, else staged.
enum class Transport { automatic, direct, mpi, staged };
inline Transport parse_transport(const std::string& text) {
  if (text == "auto") return Transport::automatic;
  if (text == "direct") return Transport::direct;
  if (text == "mpi") return Transport::mpi;
  if (text == "staged") return Transport::staged;
  fail("halo transport '", text, "' is not one of auto, direct, mpi, staged");
}

struct HaloOptions {
  double timeout_seconds = 300;  // a rank waits at most this long for a neighbour, then throws naming it
  Transport transport = Transport::automatic;
  bool device_memory = false;  // the fields live in GPU memory
};

// The ranks as a px x py x pz grid over x, y and z (x fastest: rank = (cz * py + cy) * px + cx), without
// reordering.
class Cartesian {
 public:
  // No decomposition: MPI_Dims_create splits y and z (x whole). Refuses a grid whose size is not the world's,
  // naming both.
  Cartesian(const World& world, const std::optional<wave::Decomposition>& requested);
  ~Cartesian();
  const wave::Decomposition& decomposition() const { return decomposition_; }
  const std::array<int, 3>& coord() const { return coord_; }
  // The halo transport to the grid's neighbours (collective: every rank calls it): null on a grid of one rank.
  // Refuses a transport that cannot run here, naming why.
  std::unique_ptr<wave::HaloExchange> halo(const HaloOptions& options) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  wave::Decomposition decomposition_;
  std::array<int, 3> coord_{};
};

}  // namespace seis::mpi

#pragma once
// The processes of one seis-wave run and their Cartesian grid over (y, z). Two implementations behind one header:
// world_mpi.cpp (Open MPI, built with SEIS_MPI=ON) and world_serial.cpp (one process), so the application has one
// code path. Host-only: compiled by the plain C++ compiler in every build, never by a device compiler.
#include <memory>
#include <string>
#include <vector>

#include "seis/wave/subdomain.hpp"

namespace seis::mpi {

class World {
 public:
  World(int& argc, char**& argv);  // MPI_Init_thread (funneled: only the main thread calls MPI)
  ~World();                        // MPI_Finalize
  World(const World&) = delete;
  World& operator=(const World&) = delete;

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
  double max(double value) const;
  double sum(double value) const;
  int min(int value) const;
  int max(int value) const;
  // Elementwise sum over all ranks into rank 0's `data` (the others' is left as it was).
  void reduce_sum(std::vector<float>& data) const;

 private:
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
};

// The ranks as a py x pz grid over y and z (z slowest: rank = cz * py + cy), without reordering.
class Cartesian {
 public:
  // py = pz = 0: MPI_Dims_create chooses. Refuses a grid whose size is not the world's, naming both.
  Cartesian(const World& world, int py, int pz);
  ~Cartesian();
  int py() const { return py_; }
  int pz() const { return pz_; }
  int cy() const { return cy_; }
  int cz() const { return cz_; }
  // Halo transport to the grid's neighbours: non-blocking sends and receives, finish() waits at most
  // `timeout_seconds` and then throws, naming the faces and ranks it still waits for. `device_buffers`: the
  // transport is handed device memory (GPU-aware MPI). Null on a grid of one rank.
  std::unique_ptr<wave::HaloExchange> halo(double timeout_seconds, bool device_buffers) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int py_ = 1, pz_ = 1, cy_ = 0, cz_ = 0;
};

}  // namespace seis::mpi

#pragma once
// Memory that neighbouring ranks of one node write into directly, and the marks that order those writes, for
// the direct halo transport (direct_exchange.cpp). Two kinds: GPU memory shared through the vendor runtime's IPC
// (peer_memory_gpu.cpp: CUDA or HIP, device to device over NVLink or PCIe) and, on host backends, an MPI-3
// shared-memory window (peer_memory_shared.cpp). Host-only, MPI builds only.
#include <mpi.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace seis::mpi {

class PeerMemory {
 public:
  virtual ~PeerMemory() = default;
  virtual std::string name() const = 0;  // "cuda-ipc", "hip-ipc", "mpi-shared-memory"
  // This rank's buffer of `floats` (collective over the node's ranks for a window), and what a neighbour needs
  // to map it.
  virtual float* allocate(std::size_t floats) = 0;
  virtual std::vector<char> share() = 0;
  // A neighbour's buffer, from what it shared: `rank` is its rank in the communicator given at creation.
  virtual float* map(int rank, const std::vector<char>& shared) = 0;
  // Marks: `count` of this rank's, shared with the neighbours that wait for them, and a neighbour's, opened.
  virtual std::vector<char> make_marks(int count) = 0;
  virtual void open_marks(int rank, const std::vector<char>& shared) = 0;
  // Mark `n` of this rank's: what was enqueued on `stream` so far (GPUs) or written so far (hosts) becomes
  // visible to the neighbour that waits for it.
  virtual void mark(int n, void* stream) = 0;
  // Mark `n` of neighbour `rank`'s, as last marked: `stream` (GPUs) or this thread (hosts) sees what it covers.
  virtual void wait(int rank, int n, void* stream) = 0;
};

// The GPU kind, or null in builds without CUDA or HIP.
std::unique_ptr<PeerMemory> make_gpu_peer_memory();
// This process's GPU as other processes find it (its PCI bus id); empty without CUDA or HIP.
std::string gpu_identity();
// Why this process's GPU cannot write into the GPU `peer_id` names (not visible here, or no peer access), or
// empty where it can (the same GPU, or a peer).
std::string gpu_unreachable(const std::string& peer_id);

// The host kind over the ranks of `node` (a communicator whose ranks share memory).
std::unique_ptr<PeerMemory> make_shared_window_memory(MPI_Comm node);

}  // namespace seis::mpi

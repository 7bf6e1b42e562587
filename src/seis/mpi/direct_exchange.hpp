#pragma once
// The direct halo transport: each rank packs its planes straight into its neighbours' buffers (PeerMemory), marks
// them, and tells the neighbour with a one-int MPI message carrying the step; the neighbour waits for the message,
// then for the mark (on its device stream where it has one) before it unpacks. Two buffers per face, used by
// alternate steps: a rank writes step n + 2's planes only after the neighbour has sent its own step n + 1 planes,
// which it packed after unpacking step n, so no write overtakes a read. Host-only, MPI builds only.
#include <mpi.h>

#include <memory>

#include "seis/mpi/peer_memory.hpp"
#include "seis/wave/subdomain.hpp"

namespace seis::mpi {

// `neighbour`: each face's rank in `comm` (MPI_PROC_NULL where none), `node_rank`: the same in the communicator
// `memory` was made over.
std::unique_ptr<wave::HaloExchange> make_direct_exchange(MPI_Comm comm, const int (&neighbour)[wave::face_count],
                                                         const int (&node_rank)[wave::face_count], double timeout,
                                                         std::unique_ptr<PeerMemory> memory);

}  // namespace seis::mpi

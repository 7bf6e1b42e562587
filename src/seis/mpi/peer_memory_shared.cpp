// PeerMemory of host backends: one MPI-3 shared-memory window over the node's ranks. Each rank's buffer is its
// segment of the window; a neighbour's is found with MPI_Win_shared_query. A passive epoch held for the window's
// life lets MPI_Win_sync order the plain stores and loads of the ranks (the unified memory model's rule).
#include <exception>

#include "seis/mpi/mpi_support.hpp"
#include "seis/mpi/peer_memory.hpp"

namespace seis::mpi {

namespace {

class SharedWindow : public PeerMemory {
 public:
  explicit SharedWindow(MPI_Comm node) : node_(node) {}
  ~SharedWindow() override {
    // MPI_Win_free is collective: never while unwinding from a failure (the rank then ends the run with MPI_Abort).
    if (win_ == MPI_WIN_NULL || std::uncaught_exceptions() > 0) return;
    const detail::Waiting waiting("MPI_Win_free");
    MPI_Win_unlock_all(win_);
    MPI_Win_free(&win_);
  }
  std::string name() const override { return "mpi-shared-memory"; }
  float* allocate(std::size_t floats) override {
    float* base = nullptr;
    detail::check(MPI_Win_allocate_shared(MPI_Aint((floats + 1) * sizeof(float)), int(sizeof(float)), MPI_INFO_NULL,
                                          node_, &base, &win_),
                  "MPI_Win_allocate_shared");
    detail::check(MPI_Win_lock_all(MPI_MODE_NOCHECK, win_), "MPI_Win_lock_all");
    return base;
  }
  std::vector<char> share() override { return {}; }
  float* map(int rank, const std::vector<char>&) override {
    MPI_Aint size = 0;
    int unit = 0;
    float* base = nullptr;
    detail::check(MPI_Win_shared_query(win_, rank, &size, &unit, &base), "MPI_Win_shared_query");
    return base;
  }
  std::vector<char> make_marks(int) override { return {}; }
  void open_marks(int, const std::vector<char>&) override {}
  void mark(int, void*) override { detail::check(MPI_Win_sync(win_), "MPI_Win_sync"); }
  void wait(int, int, void*) override { detail::check(MPI_Win_sync(win_), "MPI_Win_sync"); }

 private:
  MPI_Comm node_;
  MPI_Win win_ = MPI_WIN_NULL;
};

}  // namespace

std::unique_ptr<PeerMemory> make_shared_window_memory(MPI_Comm node) { return std::make_unique<SharedWindow>(node); }

}  // namespace seis::mpi

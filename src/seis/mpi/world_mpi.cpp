// The World of builds with SEIS_MPI=ON: Open MPI (Debian's libopenmpi-dev), or any MPI-3 library.
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's MPIX_CUDA_AWARE_SUPPORT
#endif

#include <algorithm>
#include <climits>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "seis/core/error.hpp"
#include "seis/mpi/world.hpp"

namespace seis::mpi {

namespace {

void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string(call) + " failed: " + std::string(text, std::size_t(length)));
}

// MPI counts are int: large arrays go in pieces.
template <class F>
void in_chunks(std::size_t count, F&& f) {
  const std::size_t chunk = std::size_t(1) << 30;
  for (std::size_t first = 0; first < count; first += chunk) f(first, int(std::min(chunk, count - first)));
}

}  // namespace

World::World(int& argc, char**& argv) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  }
  // Errors come back as codes (and become exceptions here), instead of aborting inside the library.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm node;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  MPI_Comm_rank(node, &local_rank_);
  MPI_Comm_size(node, &local_size_);
  MPI_Comm_free(&node);
}

World::~World() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

bool World::enabled() { return true; }

std::string World::library() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);
  const std::string all(text, std::size_t(length));
  return all.substr(0, std::min(all.find_first_of(",\n"), all.size()));
}

bool World::gpu_aware() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

void World::abort(int code) const {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

void World::barrier() const { check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }

namespace {
template <class T>
T all_reduce(T value, MPI_Datatype type, MPI_Op op) {
  check(MPI_Allreduce(MPI_IN_PLACE, &value, 1, type, op, MPI_COMM_WORLD), "MPI_Allreduce");
  return value;
}
}  // namespace

double World::max(double value) const { return all_reduce(value, MPI_DOUBLE, MPI_MAX); }
double World::sum(double value) const { return all_reduce(value, MPI_DOUBLE, MPI_SUM); }
int World::min(int value) const { return all_reduce(value, MPI_INT, MPI_MIN); }
int World::max(int value) const { return all_reduce(value, MPI_INT, MPI_MAX); }

void World::reduce_sum(std::vector<float>& data) const {
  in_chunks(data.size(), [&](std::size_t first, int count) {
    float* p = data.data() + first;
    check(rank_ == 0 ? MPI_Reduce(MPI_IN_PLACE, p, count, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD)
                     : MPI_Reduce(p, nullptr, count, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD),
          "MPI_Reduce");
  });
}

namespace {

// Non-blocking halo transport. A message leaves through face f and arrives at the neighbour's face f ^ 1 (y-/y+,
// z-/z+): it is tagged with the arriving face, so the two messages between a pair of ranks never mix.
class Halo : public wave::HaloExchange {
 public:
  Halo(MPI_Comm comm, const int (&neighbour)[wave::face_count], double timeout, bool device)
      : comm_(comm), timeout_(timeout), device_(device) {
    std::copy(neighbour, neighbour + wave::face_count, neighbour_);
  }
  void start(const std::array<float*, wave::face_count>& send, const std::array<float*, wave::face_count>& receive,
             const std::array<std::size_t, wave::face_count>& count) override {
    requests_.clear();
    faces_.clear();
    for (int f = 0; f < wave::face_count; ++f) {
      if (count[f] == 0) continue;
      require(neighbour_[f] != MPI_PROC_NULL, "halo exchange: face ", wave::to_string(wave::Face(f)),
              " has no neighbour rank");
      require(count[f] <= std::size_t(INT_MAX), "halo exchange: ", count[f], " floats on face ",
              wave::to_string(wave::Face(f)), ", at most ", INT_MAX, " per message");
      requests_.emplace_back();
      check(MPI_Irecv(receive[f], int(count[f]), MPI_FLOAT, neighbour_[f], f, comm_, &requests_.back()), "MPI_Irecv");
      faces_.push_back(f);
      requests_.emplace_back();
      check(MPI_Isend(send[f], int(count[f]), MPI_FLOAT, neighbour_[f], f ^ 1, comm_, &requests_.back()), "MPI_Isend");
      faces_.push_back(f);
    }
    ++exchanges_;
  }

  void finish() override {
    const double deadline = MPI_Wtime() + timeout_;
    int done = 0;
    while (true) {
      check(MPI_Testall(int(requests_.size()), requests_.data(), &done, MPI_STATUSES_IGNORE), "MPI_Testall");
      if (done || MPI_Wtime() > deadline) break;
      std::this_thread::yield();  // oversubscribed ranks (CI's --oversubscribe) let their neighbours run
    }
    if (done) return;
    std::ostringstream waiting;
    for (std::size_t r = 0; r < requests_.size(); ++r) {
      int complete = 0;
      MPI_Test(&requests_[r], &complete, MPI_STATUS_IGNORE);
      if (!complete)
        waiting << " " << (r % 2 == 0 ? "receive from" : "send to") << " rank " << neighbour_[faces_[r]] << " ("
                << wave::to_string(wave::Face(faces_[r])) << ")";
    }
    if (waiting.str().empty()) return;  // the last messages arrived as the time ran out
    std::ostringstream message;
    message << "halo exchange " << exchanges_ << " not complete after " << timeout_ << " s; waiting for"
            << waiting.str() << " (a rank failed or stalled; --mpi-timeout sets the limit)";
    throw std::runtime_error(message.str());
  }

  bool device_buffers() const override { return device_; }

 private:
  MPI_Comm comm_;
  int neighbour_[wave::face_count];
  double timeout_;
  bool device_;
  std::vector<MPI_Request> requests_;
  std::vector<int> faces_;
  long exchanges_ = 0;
};

}  // namespace

struct Cartesian::Impl {
  MPI_Comm comm = MPI_COMM_NULL;
  int neighbour[wave::face_count] = {MPI_PROC_NULL, MPI_PROC_NULL, MPI_PROC_NULL, MPI_PROC_NULL};
  ~Impl() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (comm != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm);
  }
};

Cartesian::Cartesian(const World& world, int py, int pz) : impl_(std::make_unique<Impl>()) {
  int dims[2] = {pz, py};  // z slowest
  if (py == 0 && pz == 0) {
    check(MPI_Dims_create(world.size(), 2, dims), "MPI_Dims_create");
  } else {
    require(py >= 1 && pz >= 1 && py * pz == world.size(), "decomposition ", py, "x", pz, " has ", py * pz,
            " parts, the run has ", world.size(), " MPI ranks");
  }
  const int periodic[2] = {0, 0};
  check(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periodic, 0, &impl_->comm), "MPI_Cart_create");
  MPI_Comm_set_errhandler(impl_->comm, MPI_ERRORS_RETURN);
  int coords[2] = {0, 0};
  check(MPI_Cart_coords(impl_->comm, world.rank(), 2, coords), "MPI_Cart_coords");
  pz_ = dims[0], py_ = dims[1], cz_ = coords[0], cy_ = coords[1];
  check(MPI_Cart_shift(impl_->comm, 1, 1, &impl_->neighbour[wave::face_y_low], &impl_->neighbour[wave::face_y_high]),
        "MPI_Cart_shift");
  check(MPI_Cart_shift(impl_->comm, 0, 1, &impl_->neighbour[wave::face_z_low], &impl_->neighbour[wave::face_z_high]),
        "MPI_Cart_shift");
}

Cartesian::~Cartesian() = default;

std::unique_ptr<wave::HaloExchange> Cartesian::halo(double timeout_seconds, bool device_buffers) const {
  if (py_ * pz_ == 1) return nullptr;
  return std::make_unique<Halo>(impl_->comm, impl_->neighbour, timeout_seconds, device_buffers);
}

}  // namespace seis::mpi

// The World of builds with SEIS_MPI=ON: Open MPI (Debian's libopenmpi-dev), or any MPI-3 library.
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's MPIX_CUDA_AWARE_SUPPORT
#endif

#include <algorithm>
#include <array>
#include <climits>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "seis/core/error.hpp"
#include "seis/mpi/direct_exchange.hpp"
#include "seis/mpi/mpi_support.hpp"
#include "seis/mpi/peer_memory.hpp"
#include "seis/mpi/world.hpp"

namespace seis::mpi {

using detail::check;
using detail::Waiting;

namespace {

// MPI counts are int: large arrays go in pieces.
template <class F>
void in_chunks(std::size_t count, F&& f) {
  const std::size_t chunk = std::size_t(1) << 30;
  for (std::size_t first = 0; first < count; first += chunk) f(first, int(std::min(chunk, count - first)));
}

}  // namespace

// The communicator of a World: MPI_COMM_WORLD (never freed), or a split's own, freed with the last World holding
// it unless MPI has already finalized.
struct World::Handle {
  MPI_Comm comm = MPI_COMM_WORLD;
  bool owned = false;
  ~Handle() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (owned && !finalized) MPI_Comm_free(&comm);
  }
};

namespace {

MPI_Comm comm_of(const World& world) { return world.handle().comm; }

// Errors come back as codes (and become exceptions here), instead of aborting inside the library.
void describe(MPI_Comm comm, int& rank, int& size, int& local_rank, int& local_size) {
  const Waiting waiting("MPI_Comm_split_type");
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Comm node;
  check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  MPI_Comm_rank(node, &local_rank);
  MPI_Comm_size(node, &local_size);
  MPI_Comm_free(&node);
}

}  // namespace

World::World(int& argc, char**& argv, double wait_limit_seconds) : handle_(std::make_shared<Handle>()) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    const std::string program = argc > 0 ? argv[0] : "seis";
    detail::start_watchdog(program.substr(program.find_last_of('/') + 1), wait_limit_seconds);
    const Waiting waiting("MPI_Init_thread");
    int provided = 0;
    check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  }
  describe(MPI_COMM_WORLD, rank_, size_, local_rank_, local_size_);
  detail::watchdog_rank(rank_);
}

World::~World() {
  if (handle_->comm != MPI_COMM_WORLD) return;
  handle_.reset();
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) {
    const Waiting waiting("MPI_Finalize");
    MPI_Finalize();
  }
  detail::stop_watchdog();
}

std::unique_ptr<World> World::split(int color) const {
  std::unique_ptr<World> part(new World());
  part->handle_ = std::make_shared<Handle>();
  const Waiting waiting("MPI_Comm_split");
  check(MPI_Comm_split(comm_of(*this), color, rank_, &part->handle_->comm), "MPI_Comm_split");
  part->handle_->owned = true;
  describe(part->handle_->comm, part->rank_, part->size_, part->local_rank_, part->local_size_);
  return part;
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

void World::barrier() const {
  const Waiting waiting("MPI_Barrier");
  check(MPI_Barrier(comm_of(*this)), "MPI_Barrier");
}

void World::await_all() const { check(MPI_Barrier(comm_of(*this)), "MPI_Barrier"); }

namespace {
template <class T>
T all_reduce(MPI_Comm comm, T value, MPI_Datatype type, MPI_Op op) {
  const Waiting waiting("MPI_Allreduce");
  check(MPI_Allreduce(MPI_IN_PLACE, &value, 1, type, op, comm), "MPI_Allreduce");
  return value;
}
}  // namespace

double World::max(double value) const { return all_reduce(comm_of(*this), value, MPI_DOUBLE, MPI_MAX); }
double World::sum(double value) const { return all_reduce(comm_of(*this), value, MPI_DOUBLE, MPI_SUM); }
int World::min(int value) const { return all_reduce(comm_of(*this), value, MPI_INT, MPI_MIN); }
int World::max(int value) const { return all_reduce(comm_of(*this), value, MPI_INT, MPI_MAX); }

void World::reduce_sum(std::vector<float>& data) const {
  const MPI_Comm comm = comm_of(*this);
  const Waiting waiting("MPI_Reduce");
  in_chunks(data.size(), [&](std::size_t first, int count) {
    float* p = data.data() + first;
    check(rank_ == 0 ? MPI_Reduce(MPI_IN_PLACE, p, count, MPI_FLOAT, MPI_SUM, 0, comm)
                     : MPI_Reduce(p, nullptr, count, MPI_FLOAT, MPI_SUM, 0, comm),
          "MPI_Reduce");
  });
}

namespace {
void broadcast_text(MPI_Comm comm, std::string& text, int root) {
  const Waiting waiting("MPI_Bcast");
  long long length = static_cast<long long>(text.size());
  check(MPI_Bcast(&length, 1, MPI_LONG_LONG, root, comm), "MPI_Bcast");
  text.resize(std::size_t(length));
  in_chunks(text.size(), [&](std::size_t first, int count) {
    check(MPI_Bcast(&text[first], count, MPI_CHAR, root, comm), "MPI_Bcast");
  });
}
}  // namespace

void World::broadcast(std::string& text, int root) const { broadcast_text(comm_of(*this), text, root); }

namespace {
void broadcast_floats(MPI_Comm comm, std::vector<float>& values, int root) {
  long long count = static_cast<long long>(values.size());
  check(MPI_Bcast(&count, 1, MPI_LONG_LONG, root, comm), "MPI_Bcast");
  values.resize(std::size_t(count));
  in_chunks(values.size(), [&](std::size_t first, int n) {
    check(MPI_Bcast(values.data() + first, n, MPI_FLOAT, root, comm), "MPI_Bcast");
  });
}
}  // namespace

void World::broadcast(std::vector<float>& values, int root) const {
  const Waiting waiting("MPI_Bcast");
  broadcast_floats(comm_of(*this), values, root);
}

void World::broadcast(double& value, int root) const {
  const Waiting waiting("MPI_Bcast");
  check(MPI_Bcast(&value, 1, MPI_DOUBLE, root, comm_of(*this)), "MPI_Bcast");
}

std::vector<float> World::read_once_per_node(const std::function<std::vector<float>()>& read) const {
  MPI_Comm node;
  {
    const Waiting waiting("MPI_Comm_split_type");
    check(MPI_Comm_split_type(comm_of(*this), MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node),
          "MPI_Comm_split_type");
  }
  int node_rank = 0;
  MPI_Comm_rank(node, &node_rank);
  std::vector<float> values;
  std::string error;
  if (node_rank == 0) try {
      values = read();
    } catch (const std::exception& e) {
      error = e.what();
    }
  try {
    const Waiting waiting("MPI_Bcast");
    broadcast_text(node, error, 0);
    if (!error.empty()) throw std::runtime_error(error);
    broadcast_floats(node, values, 0);
  } catch (...) {
    MPI_Comm_free(&node);
    throw;
  }
  MPI_Comm_free(&node);
  return values;
}

struct SharedCounter::Impl {
  MPI_Win window = MPI_WIN_NULL;
  ~Impl() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized || window == MPI_WIN_NULL) return;
    const Waiting waiting("MPI_Win_free");
    MPI_Win_unlock_all(window);
    MPI_Win_free(&window);
  }
};

SharedCounter::SharedCounter(const World& world) : impl_(std::make_unique<Impl>()) {
  int* base = nullptr;
  const MPI_Aint bytes = world.rank() == 0 ? MPI_Aint(sizeof(int)) : 0;
  const Waiting waiting("MPI_Win_allocate");
  check(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, comm_of(world), &base, &impl_->window), "MPI_Win_allocate");
  if (world.rank() == 0) *base = 0;
  world.barrier();  // the zero is in place before anyone adds to it
  check(MPI_Win_lock_all(MPI_MODE_NOCHECK, impl_->window), "MPI_Win_lock_all");
}

SharedCounter::~SharedCounter() = default;

int SharedCounter::next() {
  const int one = 1;
  int value = 0;
  const Waiting waiting("MPI_Fetch_and_op");
  check(MPI_Fetch_and_op(&one, &value, MPI_INT, 0, 0, MPI_SUM, impl_->window), "MPI_Fetch_and_op");
  check(MPI_Win_flush(0, impl_->window), "MPI_Win_flush");
  return value;
}

namespace {

// Non-blocking halo transport through MPI messages. A message leaves through face f and arrives at the
// neighbour's face f ^ 1: it is tagged with the arriving face, so the messages between a pair of ranks never mix.
class Halo : public wave::HaloExchange {
 public:
  Halo(MPI_Comm comm, const int (&neighbour)[wave::face_count], double timeout, bool device, std::string name)
      : comm_(comm), timeout_(timeout), device_(device), name_(std::move(name)) {
    std::copy(neighbour, neighbour + wave::face_count, neighbour_);
  }
  std::string transport() const override { return name_; }
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
    const bool done = detail::wait_until(timeout_, [&] {
      int all = 0;
      check(MPI_Testall(int(requests_.size()), requests_.data(), &all, MPI_STATUSES_IGNORE), "MPI_Testall");
      return all != 0;
    });
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
  std::string name_;
  std::vector<MPI_Request> requests_;
  std::vector<int> faces_;
  long exchanges_ = 0;
};

// Every rank's reason (empty: none) that the direct transport cannot run; the first rank's that has one, on all.
std::string first_reason(MPI_Comm comm, const std::string& mine) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int first = mine.empty() ? size : rank;
  check(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (first == size) return "";
  std::string text = rank == first ? "rank " + std::to_string(rank) + ": " + mine : std::string();
  int length = int(text.size());
  check(MPI_Bcast(&length, 1, MPI_INT, first, comm), "MPI_Bcast");
  text.resize(std::size_t(length));
  check(MPI_Bcast(text.data(), length, MPI_CHAR, first, comm), "MPI_Bcast");
  return text;
}

}  // namespace

struct Cartesian::Impl {
  MPI_Comm comm = MPI_COMM_NULL, node = MPI_COMM_NULL;
  int neighbour[wave::face_count] = {MPI_PROC_NULL, MPI_PROC_NULL, MPI_PROC_NULL,
                                     MPI_PROC_NULL, MPI_PROC_NULL, MPI_PROC_NULL};
  ~Impl() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
    if (node != MPI_COMM_NULL) MPI_Comm_free(&node);
  }
};

Cartesian::Cartesian(const World& world, const std::optional<wave::Decomposition>& requested)
    : impl_(std::make_unique<Impl>()) {
  const Waiting waiting("MPI_Cart_create");
  int dims[3] = {1, 0, 0};  // z slowest; by default x whole and y, z chosen
  if (requested) {
    require(requested->count() == world.size(), "decomposition ", requested->text(), " has ", requested->count(),
            " parts, the run has ", world.size(), " MPI ranks");
    dims[0] = requested->parts[2], dims[1] = requested->parts[1], dims[2] = requested->parts[0];
  } else {
    int yz[2] = {0, 0};
    check(MPI_Dims_create(world.size(), 2, yz), "MPI_Dims_create");
    dims[0] = yz[0], dims[1] = yz[1], dims[2] = 1;
  }
  const int periodic[3] = {0, 0, 0};
  check(MPI_Cart_create(comm_of(world), 3, dims, periodic, 0, &impl_->comm), "MPI_Cart_create");
  MPI_Comm_set_errhandler(impl_->comm, MPI_ERRORS_RETURN);
  int coords[3] = {0, 0, 0};
  check(MPI_Cart_coords(impl_->comm, world.rank(), 3, coords), "MPI_Cart_coords");
  for (int a = 0; a < 3; ++a) {
    decomposition_.parts[a] = dims[2 - a];
    coord_[std::size_t(a)] = coords[2 - a];
    check(MPI_Cart_shift(impl_->comm, 2 - a, 1, &impl_->neighbour[2 * a], &impl_->neighbour[2 * a + 1]),
          "MPI_Cart_shift");
  }
  check(MPI_Comm_split_type(impl_->comm, MPI_COMM_TYPE_SHARED, world.rank(), MPI_INFO_NULL, &impl_->node),
        "MPI_Comm_split_type");
}

Cartesian::~Cartesian() = default;

std::unique_ptr<wave::HaloExchange> Cartesian::halo(const HaloOptions& o) const {
  if (decomposition_.count() == 1) return nullptr;
  const Waiting waiting("the halo transport's set-up");
  MPI_Comm comm = impl_->comm;
  const int* neighbour = impl_->neighbour;
  int size = 0, node_size = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_size(impl_->node, &node_size);

  // Can every rank map its neighbours' memory? All on one node, and on GPUs each neighbour's GPU reachable.
  std::string why_not;
  if (node_size != size)
    why_not = "the ranks span several nodes (" + std::to_string(node_size) + " of " + std::to_string(size) +
              " on this one); direct needs one node";
  if (why_not.empty() && o.device_memory) {
    const std::string mine = gpu_identity();
    if (mine.empty()) why_not = gpu_unreachable("");
    std::vector<MPI_Request> requests;
    char theirs[wave::face_count][64] = {};
    char own[64] = {};
    mine.copy(own, sizeof own - 1);
    for (int f = 0; f < wave::face_count; ++f) {
      if (neighbour[f] == MPI_PROC_NULL) continue;
      requests.resize(requests.size() + 2);
      check(MPI_Isend(own, 64, MPI_CHAR, neighbour[f], 200 + (f ^ 1), comm, &requests[requests.size() - 2]),
            "MPI_Isend");
      check(MPI_Irecv(theirs[f], 64, MPI_CHAR, neighbour[f], 200 + f, comm, &requests.back()), "MPI_Irecv");
    }
    check(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    for (int f = 0; f < wave::face_count && why_not.empty(); ++f)
      if (neighbour[f] != MPI_PROC_NULL) why_not = gpu_unreachable(theirs[f]);
  }
  why_not = first_reason(comm, why_not);

  const bool gpu_aware = o.device_memory && World::gpu_aware();
  Transport t = o.transport;
  if (t == Transport::automatic)
    t = why_not.empty() ? Transport::direct : !o.device_memory || gpu_aware ? Transport::mpi : Transport::staged;
  if (t == Transport::direct) {
    require(why_not.empty(), "--halo-transport direct cannot run: ", why_not);
    int node_rank[wave::face_count];
    MPI_Group cart_group, node_group;
    MPI_Comm_group(comm, &cart_group);
    MPI_Comm_group(impl_->node, &node_group);
    MPI_Group_translate_ranks(cart_group, wave::face_count, neighbour, node_group, node_rank);
    MPI_Group_free(&cart_group);
    MPI_Group_free(&node_group);
    auto memory = o.device_memory ? make_gpu_peer_memory() : make_shared_window_memory(impl_->node);
    return make_direct_exchange(comm, impl_->neighbour, node_rank, o.timeout_seconds, std::move(memory));
  }
  if (t == Transport::mpi && o.device_memory)
    require(gpu_aware, "--halo-transport mpi: ", World::library(),
            " cannot read GPU memory (it is not CUDA-aware); use direct (one node) or staged");
  const bool device = t == Transport::mpi && o.device_memory;
  const std::string name = device ? "gpu-aware-mpi" : o.device_memory ? "staged-mpi" : "mpi";
  return std::make_unique<Halo>(comm, impl_->neighbour, o.timeout_seconds, device, name);
}

}  // namespace seis::mpi

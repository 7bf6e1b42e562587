#include "seis/mpi/direct_exchange.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <vector>

#include "seis/core/error.hpp"
#include "seis/mpi/mpi_support.hpp"

namespace seis::mpi {

namespace {

using wave::face_count;

// Tags of the direct transport's messages: its set-up and its per-step tokens, each by the face it arrives at.
constexpr int setup_tag = 300, token_tag = 400;

class DirectExchange : public wave::HaloExchange {
 public:
  DirectExchange(MPI_Comm comm, const int (&neighbour)[face_count], const int (&node_rank)[face_count], double timeout,
                 std::unique_ptr<PeerMemory> memory)
      : comm_(comm), timeout_(timeout), memory_(std::move(memory)) {
    std::copy(neighbour, neighbour + face_count, neighbour_);
    std::copy(node_rank, node_rank + face_count, node_rank_);
    std::fill(std::begin(sending_), std::end(sending_), MPI_REQUEST_NULL);
  }
  ~DirectExchange() override {
    for (MPI_Request& r : sending_)
      if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
  }

  Path path() const override { return Path::direct; }
  std::string transport() const override { return memory_->name(); }

  void connect(const std::array<std::size_t, face_count>& count) override {
    // This rank's inboxes, two per shared face, in one buffer.
    std::size_t offset[face_count][2] = {}, total = 0;
    for (int f = 0; f < face_count; ++f)
      for (int p = 0; p < 2 && count[f] > 0; ++p) {
        offset[f][p] = total;
        total += (count[f] + 63) / 64 * 64;  // 256-byte starts
      }
    float* base = memory_->allocate(total);
    for (int f = 0; f < face_count; ++f)
      for (int p = 0; p < 2; ++p) inbox_[f][p] = count[f] > 0 ? base + offset[f][p] : nullptr;
    // To the neighbour beyond face f: where its planes for this face go, the buffer's handle and this rank's
    // marks. Marks 2 f + p say that this rank's planes for face f, step parity p, are in place.
    const std::vector<char> shared = memory_->share(), marks = memory_->make_marks(2 * face_count);
    std::vector<std::vector<char>> out(face_count);
    std::vector<MPI_Request> requests;
    for (int f = 0; f < face_count; ++f) {
      if (count[f] == 0) continue;
      require(neighbour_[f] != MPI_PROC_NULL, "halo exchange: face ", wave::to_string(wave::Face(f)),
              " has no neighbour rank");
      std::vector<char>& m = out[std::size_t(f)];
      const std::uint64_t head[4] = {offset[f][0], offset[f][1], shared.size(), marks.size()};
      m.resize(sizeof head);
      std::memcpy(m.data(), head, sizeof head);
      m.insert(m.end(), shared.begin(), shared.end());
      m.insert(m.end(), marks.begin(), marks.end());
      requests.emplace_back();
      detail::check(
          MPI_Isend(m.data(), int(m.size()), MPI_BYTE, neighbour_[f], setup_tag + (f ^ 1), comm_, &requests.back()),
          "MPI_Isend");
    }
    for (int f = 0; f < face_count; ++f) {
      if (count[f] == 0) continue;
      MPI_Status status;
      detail::check(MPI_Probe(neighbour_[f], setup_tag + f, comm_, &status), "MPI_Probe");
      int size = 0;
      MPI_Get_count(&status, MPI_BYTE, &size);
      std::vector<char> in(static_cast<std::size_t>(size));
      detail::check(MPI_Recv(in.data(), size, MPI_BYTE, neighbour_[f], setup_tag + f, comm_, MPI_STATUS_IGNORE),
                    "MPI_Recv");
      std::uint64_t head[4];
      require(in.size() >= sizeof head, "halo exchange: a malformed set-up message from rank ", neighbour_[f]);
      std::memcpy(head, in.data(), sizeof head);
      const auto at = in.begin() + std::ptrdiff_t(sizeof head);
      float* remote = memory_->map(node_rank_[f], std::vector<char>(at, at + std::ptrdiff_t(head[2])));
      memory_->open_marks(node_rank_[f], std::vector<char>(at + std::ptrdiff_t(head[2]), in.end()));
      outbox_[f][0] = remote + head[0];
      outbox_[f][1] = remote + head[1];
    }
    detail::check(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  }

  float* inbox(int face, int step) override { return inbox_[face][step & 1]; }
  float* outbox(int face, int step) override { return outbox_[face][step & 1]; }

  void posted(int face, int step, void* stream) override {
    memory_->mark(2 * face + (step & 1), stream);
    MPI_Request& r = sending_[face];
    if (r != MPI_REQUEST_NULL) {
      const bool sent = detail::wait_until(timeout_, [&] {
        int done = 0;
        detail::check(MPI_Test(&r, &done, MPI_STATUS_IGNORE), "MPI_Test");
        return done != 0;
      });
      if (!sent) stalled("send to", face, step - 1);
    }
    token_[face] = step;
    detail::check(MPI_Isend(&token_[face], 1, MPI_INT, neighbour_[face], token_tag + (face ^ 1), comm_, &r),
                  "MPI_Isend");
  }

  void arrived(int face, int step, void* stream) override {
    int token = -1;
    MPI_Request r;
    detail::check(MPI_Irecv(&token, 1, MPI_INT, neighbour_[face], token_tag + face, comm_, &r), "MPI_Irecv");
    const bool received = detail::wait_until(timeout_, [&] {
      int done = 0;
      detail::check(MPI_Test(&r, &done, MPI_STATUS_IGNORE), "MPI_Test");
      return done != 0;
    });
    if (!received) {
      MPI_Cancel(&r);
      MPI_Request_free(&r);
      stalled("receive from", face, step);
    }
    if (token != step) {
      std::ostringstream message;
      message << "halo exchange: rank " << neighbour_[face] << " (" << wave::to_string(wave::Face(face))
              << ") sent step " << token << " while this rank waits for step " << step;
      throw std::runtime_error(message.str());
    }
    // The neighbour marked these planes with its mark for the opposite face.
    memory_->wait(node_rank_[face], 2 * (face ^ 1) + (step & 1), stream);
  }

 private:
  [[noreturn]] void stalled(const char* what, int face, int step) const {
    std::ostringstream message;
    message << "halo exchange of step " << step << " not complete after " << timeout_ << " s; waiting to " << what
            << " rank " << neighbour_[face] << " (" << wave::to_string(wave::Face(face))
            << ") (a rank failed or stalled; --mpi-timeout sets the limit)";
    throw std::runtime_error(message.str());
  }

  MPI_Comm comm_;
  int neighbour_[face_count], node_rank_[face_count];
  double timeout_;
  std::unique_ptr<PeerMemory> memory_;
  float* inbox_[face_count][2] = {};
  float* outbox_[face_count][2] = {};
  MPI_Request sending_[face_count];
  int token_[face_count] = {};
};

}  // namespace

std::unique_ptr<wave::HaloExchange> make_direct_exchange(MPI_Comm comm, const int (&neighbour)[wave::face_count],
                                                         const int (&node_rank)[wave::face_count], double timeout,
                                                         std::unique_ptr<PeerMemory> memory) {
  return std::make_unique<DirectExchange>(comm, neighbour, node_rank, timeout, std::move(memory));
}

}  // namespace seis::mpi

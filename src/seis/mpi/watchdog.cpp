// The bound on every wait for other ranks outside the halo exchange (which bounds its own): MPI's blocking calls
// cannot time out, so a thread of the process watches the one in progress and ends the process when it outlasts the
// limit. The launcher (mpirun) then ends the other ranks, stalled ones included.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "seis/mpi/mpi_support.hpp"

namespace seis::mpi::detail {

namespace {

using Clock = std::chrono::steady_clock;

struct Watch {
  std::atomic<long long> since{0};  // when the wait in progress began (ns on Clock; 0: none)
  std::atomic<const char*> call{nullptr};
  std::atomic<int> rank{-1};
  double limit = 0;
  std::string program;
  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
  std::thread thread;
};

Watch& watch() {
  static Watch w;
  return w;
}

long long now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

// Checks a few times per limit (at most every second, at least every 10 ms).
void run(Watch& w) {
  const auto poll = std::chrono::duration<double>(std::min(1.0, std::max(0.01, w.limit / 10)));
  std::unique_lock<std::mutex> lock(w.mutex);
  while (!w.wake.wait_for(lock, poll, [&] { return w.stopping; })) {
    const long long since = w.since.load();
    if (since == 0 || (now_ns() - since) * 1e-9 <= w.limit) continue;
    const int rank = w.rank.load();
    std::ostringstream message;
    message << w.program << ": " << (rank >= 0 ? "rank " + std::to_string(rank) : std::string("a rank")) << ": waited "
            << w.limit << " s in " << w.call.load()
            << " for the other ranks (a rank failed or stalled; --mpi-timeout sets the limit)\n";
    std::cerr << message.str() << std::flush;
    std::_Exit(1);
  }
}

}  // namespace

void start_watchdog(const std::string& program, double limit_seconds) {
  Watch& w = watch();
  w.program = program;
  w.limit = limit_seconds;
  // Until MPI knows it, the launcher's word for this rank (Open MPI, then PMIx and PMI launchers).
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
    if (const char* rank = std::getenv(name); rank != nullptr && w.rank < 0) w.rank = std::atoi(rank);
  w.thread = std::thread(run, std::ref(w));
}

void watchdog_rank(int rank) { watch().rank = rank; }

void stop_watchdog() {
  Watch& w = watch();
  if (!w.thread.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(w.mutex);
    w.stopping = true;
  }
  w.wake.notify_one();
  w.thread.join();
}

Waiting::Waiting(const char* call) {
  Watch& w = watch();  // written by the one thread that calls MPI, read by the watchdog's
  outermost_ = w.since.load() == 0;
  if (!outermost_) return;
  w.call = call;
  w.since = now_ns();
}

Waiting::~Waiting() {
  if (outermost_) watch().since = 0;
}

}  // namespace seis::mpi::detail

#pragma once
// What the MPI translation units share: errors as exceptions, and bounded waits. Host-only, MPI builds only.
#include <mpi.h>

#include <chrono>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>

namespace seis::mpi::detail {

inline void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string(call) + " failed: " + std::string(text, std::size_t(length)));
}

// Tests `done` until it holds or `timeout_seconds` pass; returns whether it held. Yields between tests, so that
// oversubscribed ranks (CI's --oversubscribe) let their neighbours run.
inline bool wait_until(double timeout_seconds, const std::function<bool()>& done) {
  const double deadline = MPI_Wtime() + timeout_seconds;
  while (true) {
    if (done()) return true;
    if (MPI_Wtime() > deadline) return done();
    std::this_thread::yield();
  }
}

// Every blocking MPI call that waits for other ranks (start-up, collectives, set-up messages, MPI_Finalize) runs
// inside a Waiting: the watchdog (watchdog.cpp) ends the process, naming the call, when one lasts longer than the
// limit. Nested Waitings count from the outermost one's start.
void start_watchdog(const std::string& program, double limit_seconds);
void watchdog_rank(int rank);  // named in the watchdog's message once known
void stop_watchdog();

class Waiting {
 public:
  explicit Waiting(const char* call);
  ~Waiting();
  Waiting(const Waiting&) = delete;
  Waiting& operator=(const Waiting&) = delete;

 private:
  bool outermost_ = false;
};

}  // namespace seis::mpi::detail

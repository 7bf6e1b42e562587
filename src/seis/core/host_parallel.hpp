#pragma once
// Host passes over a whole model (hundreds of millions of points: the set-up's checks, extremes, the generated models)
// on the CPUs this process may use. A GPU build's Kokkos host space is Serial, and these passes ran single-threaded
// at a third of a 512^3 survey's first shot on four H100s (perf/NOTES.md 110-111); std::thread serves every build.
// Pieces are contiguous and folded in order, so the results (and the first error reported) do not depend on the
// number of threads.
#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace seis {

// The CPUs in this process's affinity mask (a launcher's binding, taskset, a cpuset), at least 1.
unsigned usable_cpus();

// `n` copies of `value` on transparent huge pages where the kernel grants them: a 512^3 model's first touch on 4 KiB
// pages took 0.33 s of a survey's set-up on the H100 machines' hosts, a page fault per 4 KiB (perf/NOTES.md 115).
std::vector<float> host_floats(std::size_t n, float value = 0.0f);

// Calls piece(begin, end) -> T over contiguous pieces of [0, n) (one per usable CPU; one piece below `grain` items
// each) and returns join(...join(init, first), ..., last) in piece order; an exception from a piece is rethrown,
// the earliest piece's first.
template <class T, class Piece, class Join>
T host_parallel_reduce(std::size_t n, T init, const Piece& piece, const Join& join, std::size_t grain = 1 << 20) {
  const std::size_t count = std::max<std::size_t>(1, std::min<std::size_t>(usable_cpus(), n / grain));
  if (count == 1) return join(init, piece(std::size_t(0), n));
  std::vector<T> result(count, init);
  std::vector<std::exception_ptr> error(count);
  const auto run = [&](std::size_t p) {
    try {
      result[p] = piece(n * p / count, n * (p + 1) / count);
    } catch (...) {
      error[p] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(count - 1);
  for (std::size_t p = 1; p < count; ++p) threads.emplace_back(run, p);
  run(0);
  for (auto& t : threads) t.join();
  for (const auto& e : error)
    if (e) std::rethrow_exception(e);
  for (const T& r : result) init = join(init, r);
  return init;
}

// piece(begin, end) over contiguous pieces of [0, n), as host_parallel_reduce.
template <class Piece>
void host_parallel_for(std::size_t n, const Piece& piece, std::size_t grain = 1 << 20) {
  host_parallel_reduce(
      n, 0,
      [&](std::size_t begin, std::size_t end) {
        piece(begin, end);
        return 0;
      },
      [](int, int) { return 0; }, grain);
}

}  // namespace seis

#pragma once
// Parts of one grid stepped together in one thread, their halos handed over in memory: the decomposition without
// MPI, so that every backend's tests can check that a split run is bitwise the undecomposed one.
#include <array>
#include <memory>
#include <vector>

#include "seis/core/error.hpp"
#include "seis/wave/simulation.hpp"

namespace seis::test {

class LocalExchange : public wave::HaloExchange {
 public:
  std::array<LocalExchange*, wave::face_count> peer{};  // the part beyond each face

  void start(const std::array<float*, wave::face_count>& send, const std::array<float*, wave::face_count>& receive,
             const std::array<std::size_t, wave::face_count>& count) override {
    receive_ = receive;
    count_ = count;
    for (int f = 0; f < wave::face_count; ++f)
      if (count[f] > 0) peer[f]->inbox_[f ^ 1].assign(send[f], send[f] + count[f]);  // y-/y+, z-/z+ pairs
  }
  void finish() override {
    for (int f = 0; f < wave::face_count; ++f) {
      if (count_[f] == 0) continue;
      require(inbox_[f].size() == count_[f], "local exchange: face ", wave::to_string(wave::Face(f)), " got ",
              inbox_[f].size(), " floats, expected ", count_[f]);
      std::copy(inbox_[f].begin(), inbox_[f].end(), receive_[f]);
      inbox_[f].clear();
    }
  }

 private:
  std::array<float*, wave::face_count> receive_{};
  std::array<std::size_t, wave::face_count> count_{};
  std::array<std::vector<float>, wave::face_count> inbox_;
};

// A py x pz decomposition of a setup, stepped in lockstep.
template <class Exec>
struct SplitRun {
  int py, pz;
  std::vector<std::unique_ptr<LocalExchange>> exchange;
  std::vector<std::unique_ptr<wave::Simulation<Exec>>> part;

  SplitRun(const wave::Setup& s, int py_, int pz_) : py(py_), pz(pz_) {
    for (int p = 0; p < py * pz; ++p) exchange.push_back(std::make_unique<LocalExchange>());
    for (int cz = 0; cz < pz; ++cz)
      for (int cy = 0; cy < py; ++cy) {
        LocalExchange& e = *exchange[std::size_t(cz * py + cy)];
        if (cy > 0) e.peer[wave::face_y_low] = exchange[std::size_t(cz * py + cy - 1)].get();
        if (cy < py - 1) e.peer[wave::face_y_high] = exchange[std::size_t(cz * py + cy + 1)].get();
        if (cz > 0) e.peer[wave::face_z_low] = exchange[std::size_t((cz - 1) * py + cy)].get();
        if (cz < pz - 1) e.peer[wave::face_z_high] = exchange[std::size_t((cz + 1) * py + cy)].get();
        part.push_back(std::make_unique<wave::Simulation<Exec>>(s, wave::split_grid(s, py, pz, cy, cz), &e));
      }
  }
  void advance(int steps) {
    for (int n = 0; n < steps; ++n) {
      for (auto& p : part) p->begin_step();
      for (auto& p : part) p->finish_step();
    }
  }
  // The parts' corner values added up (each corner recorded by one part, +0 elsewhere), then summed per receiver.
  std::vector<float> traces() const {
    const auto& s = part[0]->setup();
    std::vector<float> corners(s.receivers.size() * 8 * std::size_t(s.steps), 0.0f);
    for (const auto& p : part) {
      const auto mine = p->corner_traces();
      for (std::size_t n = 0; n < corners.size(); ++n) corners[n] += mine[n];
    }
    return wave::sum_corners(corners, s.receivers.size(), s.steps, part[0]->step());
  }
  // The whole interior, x fastest, from the parts' interiors.
  std::vector<float> wavefield() const {
    const auto& s = part[0]->setup();
    std::vector<float> out(std::size_t(s.nx) * s.ny * s.nz);
    for (const auto& p : part) {
      const wave::Subdomain& d = p->part();
      const auto mine = p->wavefield();
      std::size_t n = 0;
      for (int k = 0; k < d.size[2]; ++k)
        for (int j = 0; j < d.size[1]; ++j)
          for (int i = 0; i < d.size[0]; ++i)
            out[(std::size_t(k + d.offset[2]) * s.ny + std::size_t(j + d.offset[1])) * s.nx + std::size_t(i)] =
                mine[n++];
    }
    return out;
  }
};

}  // namespace seis::test

#pragma once
// Parts of one grid stepped together in one thread, their halos handed over in memory: the decomposition without
// MPI, so that every backend's tests can check that a split run is bitwise the undecomposed one.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "seis/core/error.hpp"
#include "seis/wave/simulation.hpp"

namespace seis::test {

class LocalExchange : public wave::HaloExchange {
 public:
  std::array<LocalExchange*, wave::face_count> peer{};  // the part beyond each face

  std::string transport() const override { return "local"; }
  void start(const std::array<float*, wave::face_count>& send, const std::array<float*, wave::face_count>& receive,
             const std::array<std::size_t, wave::face_count>& count) override {
    receive_ = receive;
    count_ = count;
    for (int f = 0; f < wave::face_count; ++f)
      if (count[f] > 0) peer[f]->inbox_[f ^ 1].emplace_back(send[f], send[f] + count[f]);  // x-/x+, y-/y+, z-/z+
  }
  // The oldest message at each face, as a transport delivers them in order (a neighbour may have sent the next
  // exchange's before this part finished this one: the TTI step's two a step).
  void finish() override {
    for (int f = 0; f < wave::face_count; ++f) {
      if (count_[f] == 0) continue;
      std::deque<std::vector<float>>& inbox = inbox_[f];
      const std::size_t got = inbox.empty() ? 0 : inbox.front().size();
      require(got == count_[f], "local exchange: face ", wave::to_string(wave::Face(f)), " got ", got,
              " floats, expected ", count_[f]);
      std::copy(inbox.front().begin(), inbox.front().end(), receive_[f]);
      inbox.pop_front();
    }
  }

 private:
  std::array<float*, wave::face_count> receive_{};
  std::array<std::size_t, wave::face_count> count_{};
  std::array<std::deque<std::vector<float>>, wave::face_count> inbox_;
};

// The values of `box` (x fastest) from values over the whole grid.
inline std::vector<float> cut(const std::vector<float>& values, const wave::Subdomain& box) {
  std::vector<float> out;
  out.reserve(box.points());
  for (int k = box.offset[2]; k < box.offset[2] + box.size[2]; ++k)
    for (int j = box.offset[1]; j < box.offset[1] + box.size[1]; ++j)
      for (int i = box.offset[0]; i < box.offset[0] + box.size[0]; ++i)
        out.push_back(
            values[(std::size_t(k) * std::size_t(box.global[1]) + std::size_t(j)) * std::size_t(box.global[0]) +
                   std::size_t(i)]);
  return out;
}

// What a rank holds of a setup over the whole grid (no padding): the velocity of its part, the density and anisotropy
// of its density_box, the whole model's vmax and whether its density varies (as seis::runs::make_setup makes them).
inline wave::Setup part_setup(const wave::Setup& s, const wave::Subdomain& part) {
  wave::Setup p = s;
  p.vmax = wave::model_vmax(s);
  p.density_varies = wave::variable_density(s);
  p.model_part = part;
  p.velocity = cut(s.velocity, part);
  if (!s.density.empty()) p.density = cut(s.density, wave::density_box(p));
  wave::Anisotropy& a = p.anisotropy;
  for (std::vector<float>* v : {&a.epsilon, &a.delta, &a.tilt, &a.azimuth})
    if (!v->empty()) *v = cut(*v, wave::density_box(p));
  return p;
}

// A decomposition of a setup over x, y and z, its parts stepped in lockstep (x fastest, as MPI ranks), each holding
// its own part of the model (part_setup).
template <class Exec>
struct SplitRun {
  wave::Decomposition d;
  std::vector<std::unique_ptr<LocalExchange>> exchange;
  std::vector<std::unique_ptr<wave::Simulation<Exec>>> part;

  SplitRun(const wave::Setup& s, const wave::Decomposition& d_) : d(d_) {
    const int* n = d.parts;
    const auto index = [n](int cx, int cy, int cz) { return std::size_t((cz * n[1] + cy) * n[0] + cx); };
    for (int p = 0; p < d.count(); ++p) exchange.push_back(std::make_unique<LocalExchange>());
    for (int cz = 0; cz < n[2]; ++cz)
      for (int cy = 0; cy < n[1]; ++cy)
        for (int cx = 0; cx < n[0]; ++cx) {
          LocalExchange& e = *exchange[index(cx, cy, cz)];
          const int c[3] = {cx, cy, cz};
          for (int f = 0; f < wave::face_count; ++f) {
            int at[3] = {cx, cy, cz};
            at[f / 2] += f % 2 == 0 ? -1 : 1;
            if (at[f / 2] >= 0 && at[f / 2] < n[f / 2])
              e.peer[std::size_t(f)] = exchange[index(at[0], at[1], at[2])].get();
          }
          const wave::Subdomain mine = wave::split_grid(s, d, {c[0], c[1], c[2]});
          part.push_back(std::make_unique<wave::Simulation<Exec>>(part_setup(s, mine), mine, &e));
        }
  }
  void advance(int steps) {
    for (int n = 0; n < steps; ++n) {
      for (auto& p : part) p->begin_step();
      for (auto& p : part) p->middle_step();
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
            out[(std::size_t(k + d.offset[2]) * s.ny + std::size_t(j + d.offset[1])) * s.nx +
                std::size_t(i + d.offset[0])] = mine[n++];
    }
    return out;
  }
};

// The run of `s` split over `d` against the whole run's interior `u` and traces, bit for bit; `what` names the case.
template <class Exec>
void expect_split_matches_whole(const wave::Setup& s, const wave::Decomposition& d, const std::vector<float>& u,
                                const std::vector<float>& traces, const std::string& what) {
  SplitRun<Exec> split(s, d);
  split.advance(s.steps);
  const auto v = split.wavefield();
  const auto t = split.traces();
  std::size_t differ = 0, first = 0;
  for (std::size_t p = 0; p < u.size(); ++p)
    if (std::memcmp(&u[p], &v[p], sizeof(float)) != 0 && differ++ == 0) first = p;
  EXPECT_EQ(differ, 0u) << what << " " << d.text() << ": first differing point " << first << " (" << u[first] << " vs "
                        << v[first] << ")";
  ASSERT_EQ(t.size(), traces.size());
  EXPECT_EQ(0, std::memcmp(t.data(), traces.data(), t.size() * sizeof(float))) << what << " " << d.text() << ": traces";
}

// The whole run of `s`, then its run split over each of `splits` against it, bit for bit.
template <class Exec>
void expect_splits_match_whole(const wave::Setup& s, const std::vector<wave::Decomposition>& splits) {
  wave::Simulation<Exec> whole(s);
  whole.advance(s.steps);
  const auto u = whole.wavefield();
  const auto traces = whole.traces();
  const std::string what =
      "R=" + std::to_string(s.radius) + " " + wave::to_string(s.strategy) + " top " + wave::to_string(s.top);
  for (const auto& d : splits) expect_split_matches_whole<Exec>(s, d, u, traces, what);
}

}  // namespace seis::test

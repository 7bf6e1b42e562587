// Reverse-time migration on this backend (seis/imaging/migration.hpp): the rebuilt source wavefield against the
// forward one, a flat reflector and a point scatterer imaged where they are, and the refusals before any step.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "seis/imaging/migration.hpp"
#include "seis/imaging/shot_data.hpp"
#include "seis/kernels/team_launch.hpp"
#include "seis/wave/simulation.hpp"
#include "test_fields.hpp"
#include "wave_cases.hpp"

namespace {

// A 40^3 box of 10 m cells, 2000 m/s, PML 8, a source at (200, 200, 100) m and 9 x 9 receivers at 100 m depth.
seis::wave::Setup migration_setup() {
  auto s = seis::test::box_setup(40, 40, 40, 10.0, 2000.0f, 4);
  s.ndamp = 8;
  s.vmax = 2400.0f;
  s.dt = 0.9 * seis::wave::stable_dt(4, s.h, s.vmax);
  s.f0 = 15.0;
  s.steps = int(0.36 / s.dt);
  s.sources = {{200.0, 200.0, 100.0}};
  for (int j = 0; j < 9; ++j)
    for (int i = 0; i < 9; ++i) s.receivers.push_back({100.0 + 25.0 * i, 100.0 + 25.0 * j, 100.0});
  return s;
}

std::vector<float> recorded(const seis::wave::Setup& s) {
  seis::wave::Simulation<TEST_EXECSPACE> sim(s);
  sim.advance(s.steps);
  return sim.traces();
}

struct Migrated {
  std::vector<float> image, illumination;
};

// The data `changed` scatters off `s`'s model (both recorded on this backend, differenced), migrated with `s`'s.
Migrated migrate_scattered(const seis::wave::Setup& s, const seis::wave::Setup& changed,
                           const seis::imaging::MigrationOptions& options = {}) {
  const auto background = recorded(s), total = recorded(changed);
  std::vector<float> data(total.size());
  for (std::size_t p = 0; p < data.size(); ++p) data[p] = total[p] - background[p];
  seis::imaging::Migration<TEST_EXECSPACE> migration(s, options, std::size_t(1) << 32);
  migration.migrate(s.sources, s.wavelet, s.f0, s.receivers,
                    seis::imaging::backward_sources(data, s.receivers.size(), s.steps, s.dt));
  return {migration.image(), migration.illumination()};
}

std::size_t at(const seis::wave::Setup& s, int i, int j, int k) {
  return (std::size_t(k) * std::size_t(s.ny) + std::size_t(j)) * std::size_t(s.nx) + std::size_t(i);
}

}  // namespace

// The two-level plan rebuilds the source wavefield bitwise: an image made with a kept state every interval (many
// segments re-run) equals, bit for bit, the one whose single segment keeps every wavefield as the forward pass makes
// it. The illumination (sum of the source wavefield's squares at the imaging steps) is that of a plain forward
// run's wavefields, summed on the host in the same order, within the float sum's rounding: m terms of one sign,
// each addition rounding within 2^-24 of the partial sum, so m 2^-24 of the total.
TEST(TEST_CATEGORY, MigrationRebuildsTheSourceWavefieldExactly) {
  auto s = migration_setup();
  s.steps = 120;
  auto scattering = s;
  scattering.velocity[at(s, 20, 20, 26)] = 2400.0f;
  const int interval = 5;
  const auto kept = migrate_scattered(s, scattering, {interval, interval});
  const auto whole = migrate_scattered(s, scattering, {interval, s.steps + interval});
  EXPECT_EQ(kept.image, whole.image);
  EXPECT_EQ(kept.illumination, whole.illumination);

  seis::wave::Simulation<TEST_EXECSPACE> forward(s);
  std::vector<std::vector<float>> fields;
  for (int n = 0; n < s.steps; n += interval) {
    forward.advance(n - forward.step());
    fields.push_back(forward.wavefield());
  }
  double worst = 0;
  for (std::size_t p = 0; p < kept.illumination.size(); ++p) {
    float sum = 0.0f;
    for (auto f = fields.rbegin(); f != fields.rend(); ++f) sum += (*f)[p] * (*f)[p];
    if (sum > 0) worst = std::max(worst, std::abs(double(kept.illumination[p]) - sum) / sum);
  }
  EXPECT_LE(worst, double(fields.size()) * std::ldexp(1.0, -24));
  EXPECT_GT(*std::max_element(kept.illumination.begin(), kept.illumination.end()), 0.0f);
}

// The correlation image against its definition: sum over the imaging steps n of u_s(n) u_r(N - n), u_s a forward
// run of the source alone and u_r a run of the receivers alone injecting the traces (both plain simulations of
// this backend, stepped separately and kept on the host), summed here in double; the illumination likewise, the
// sum of u_s(n)^2. The migration's wavefields are bitwise those two (its source side rebuilt exactly,
// MigrationRebuildsTheSourceWavefieldExactly; its receiver steps the engine's own), so only the float sums differ:
// m products and m additions of m images, each rounding within 2^-24 of a partial sum no larger than the sum of
// the terms' magnitudes, (2 m) 2^-24 of it at most, plus 2^-126 an operation where the wave's far edge is below
// float's normal range (subnormal, or flushed). Random traces, an interval of 3 and segments of 12 (a segment
// re-run between images), R = 4 and 8, the tile engine (imaging carried by the receiver's step) and a code shape
// (a pass of its own).
TEST(TEST_CATEGORY, CorrelationImageIsTheSumOfTheWavefieldsProducts) {
  using seis::wave::Shape;
  std::mt19937 rng(seis::test::test_seed());
  struct Case {
    int radius;
    Shape shape;
  };
  for (const Case c : {Case{4, Shape::tile}, Case{8, Shape::tile}, Case{4, Shape::st_reg_fixed}}) {
    const int radius = c.radius;
    const Shape shape = c.shape;
    auto s = migration_setup();
    s.radius = radius;
    s.shape = shape;
    s.steps = 60;
    s.dt = 0.9 * seis::wave::stable_dt(radius, s.h, s.vmax);
    const int interval = 3, N = s.steps;
    std::normal_distribution<float> draw;
    std::vector<float> injected(s.receivers.size() * std::size_t(N));
    for (float& x : injected) x = draw(rng);
    seis::imaging::Migration<TEST_EXECSPACE> migration(s, {interval, 12}, std::size_t(1) << 32);
    migration.migrate(s.sources, s.wavelet, s.f0, s.receivers, injected);

    auto alone = s;
    alone.receivers.clear();
    seis::wave::Simulation<TEST_EXECSPACE> source(alone);
    alone.sources.clear();
    seis::wave::Simulation<TEST_EXECSPACE> receiver(alone);
    receiver.new_shot(s.receivers, injected, {});
    std::vector<std::vector<float>> u_s;
    for (int n = 0; n < N; n += interval) {
      source.advance(n - source.step());
      u_s.push_back(source.wavefield());
    }
    const std::size_t points = u_s.front().size();
    std::vector<double> image(points, 0.0), image_size(points, 0.0), illumination(points, 0.0);
    for (int index = int(u_s.size()) - 1; index >= 0; --index) {
      receiver.advance(N - index * interval - receiver.step());
      const auto u_r = receiver.wavefield();
      const auto& u = u_s[std::size_t(index)];
      for (std::size_t p = 0; p < points; ++p) {
        image[p] += double(u[p]) * u_r[p];
        image_size[p] += std::abs(double(u[p]) * u_r[p]);
        illumination[p] += double(u[p]) * u[p];
      }
    }
    const double m = double(u_s.size());
    const auto expect_sums = [&](const std::vector<float>& got, const std::vector<double>& sum,
                                 const std::vector<double>& magnitude, const char* what) {
      std::size_t wrong = 0, first = 0;
      for (std::size_t p = 0; p < points; ++p)
        if (!(std::abs(got[p] - sum[p]) <= 2 * m * (std::ldexp(1.0, -24) * magnitude[p] + std::ldexp(1.0, -126))) &&
            wrong++ == 0)
          first = p;
      EXPECT_EQ(wrong, 0u) << what << ", R = " << radius << ", " << seis::wave::to_string(shape) << ": point " << first
                           << " is " << got[first] << ", the sum " << sum[first] << " (of magnitude "
                           << magnitude[first] << "), seed " << seis::test::test_seed();
      EXPECT_GT(*std::max_element(magnitude.begin(), magnitude.end()), 0.0);
    };
    expect_sums(migration.image(), image, image_size, "the image");
    expect_sums(migration.illumination(), illumination, illumination, "the illumination");

    // A stack that does not sum the illumination: the same image, bit for bit, and no illumination to read.
    const std::vector<float> lit = migration.image();
    migration.clear(false);
    migration.migrate(s.sources, s.wavelet, s.f0, s.receivers, injected);
    EXPECT_EQ(migration.image(), lit) << "R = " << radius << ", " << seis::wave::to_string(shape);
    seis::test::expect_error_mentioning([&] { migration.illumination(); }, "without its illumination");
  }
}

// A flat reflector, 2000 m/s over 2400 m/s between grid planes 25 and 26 (255 m), imaged at its depth: the largest
// |image| (normalised by the illumination, Laplacian-filtered, summed over the 9 x 9 columns under the receivers)
// lies on plane 25 or 26, within one grid spacing of the interface, and is positive (velocity increasing).
// Searched below the acquisition plane (100 m, where the injected data dominate) and above the PML.
TEST(TEST_CATEGORY, FlatReflectorIsImagedAtItsDepth) {
  const auto s = migration_setup();
  auto layered = s;
  for (int k = 26; k < s.nz; ++k)
    std::fill_n(layered.velocity.begin() + std::ptrdiff_t(at(s, 0, 0, k)), s.nx * s.ny, 2400.0f);
  const auto m = migrate_scattered(s, layered);
  const auto image = seis::imaging::laplacian_filter(seis::imaging::normalise_by_illumination(m.image, m.illumination),
                                                     s.nx, s.ny, s.nz);
  std::vector<double> depth(std::size_t(s.nz), 0.0);
  for (int k = 0; k < s.nz; ++k)
    for (int j = 16; j <= 24; ++j)
      for (int i = 16; i <= 24; ++i) depth[std::size_t(k)] += image[at(s, i, j, k)];
  int found = 13;
  for (int k = 13; k < s.nz - s.ndamp; ++k)
    if (std::abs(depth[std::size_t(k)]) > std::abs(depth[std::size_t(found)])) found = k;
  EXPECT_LE(std::abs(found - 25.5), 1.0) << "the image peaks on plane " << found << ", the interface is at 25.5";
  EXPECT_GT(depth[std::size_t(found)], 0.0) << "a faster layer below images with positive polarity";
}

// A point 20% faster than the 2000 m/s medium at grid point (20, 20, 26): the normalised image's largest |value|
// below the acquisition plane and above the PML within one grid point of it on every axis.
TEST(TEST_CATEGORY, PointScattererIsImagedByMigration) {
  const auto s = migration_setup();
  auto scattering = s;
  const int point[3] = {20, 20, 26};
  scattering.velocity[at(s, point[0], point[1], point[2])] = 2400.0f;
  const auto m = migrate_scattered(s, scattering);
  const auto image = seis::imaging::normalise_by_illumination(m.image, m.illumination);
  double peak = -1;
  int found[3] = {-1, -1, -1};
  for (int k = 13; k < s.nz - s.ndamp; ++k)
    for (int j = s.ndamp; j < s.ny - s.ndamp; ++j)
      for (int i = s.ndamp; i < s.nx - s.ndamp; ++i)
        if (std::abs(image[at(s, i, j, k)]) > peak)
          peak = std::abs(image[at(s, i, j, k)]), found[0] = i, found[1] = j, found[2] = k;
  for (int a = 0; a < 3; ++a)
    EXPECT_LE(std::abs(found[a] - point[a]), 1)
        << "the image peaks at (" << found[0] << ", " << found[1] << ", " << found[2] << "), the scatterer is at ("
        << point[0] << ", " << point[1] << ", " << point[2] << ")";
}

// Refused before anything is allocated or run, each naming the value and the limit.
TEST(TEST_CATEGORY, MigrationRefusesWhatItCannotDo) {
  const auto s = migration_setup();
  using seis::test::expect_error_mentioning;
  const auto plan = seis::imaging::plan_migration(s, {}, std::size_t(1) << 40);
  expect_error_mentioning([&] { seis::imaging::Migration<TEST_EXECSPACE>(s, {}, plan.total_bytes - 1); },
                          "MiB of device memory");
  expect_error_mentioning(
      [&] {
        seis::imaging::plan_migration(s, {3, 7}, std::size_t(1) << 40);
      },
      "segment 7 steps must be a multiple of the imaging interval 3");
  expect_error_mentioning(
      [&] {
        seis::imaging::plan_migration(s, {s.steps + 1, 0}, std::size_t(1) << 40);
      },
      "imaging interval");
  seis::imaging::Migration<TEST_EXECSPACE> migration(s, {}, std::size_t(1) << 32);
  expect_error_mentioning(
      [&] {
        migration.migrate(s.sources, s.wavelet, s.f0, s.receivers,
                          std::vector<float>(s.receivers.size() * std::size_t(s.steps - 1)));
      },
      "the injected traces hold");
  auto outside = s.receivers;
  outside[3].z = -10.0;
  expect_error_mentioning(
      [&] {
        migration.migrate(s.sources, s.wavelet, s.f0, outside,
                          std::vector<float>(s.receivers.size() * std::size_t(s.steps)));
      },
      "receiver 3");
}

namespace {

// The bytes the project's views (labels "seis::...") hold live in one memory space, and their peak, as Kokkos'
// allocation hooks report them. Kokkos' own (its "Kokkos::..." team scratch and reduction buffers, sized by the
// device's resident teams, not by the grid: 52 MB on an H200 for this 40^3 grid) are the runtime's.
struct Allocations {
  static inline std::string space;
  static inline long long live = 0, peak = 0;
  static inline std::map<std::string, long long> by_label, at_peak;  // live bytes per label, now and at the peak
  static bool counted(const Kokkos_Profiling_SpaceHandle& handle, const char* label) {
    return space == handle.name && std::string(label).rfind("seis::", 0) == 0;
  }
  static void allocated(const Kokkos_Profiling_SpaceHandle handle, const char* label, const void*,
                        const uint64_t bytes) {
    if (!counted(handle, label)) return;
    live += (long long)bytes;
    by_label[label] += (long long)bytes;
    if (live > peak) peak = live, at_peak = by_label;
  }
  static void freed(const Kokkos_Profiling_SpaceHandle handle, const char* label, const void*, const uint64_t bytes) {
    if (!counted(handle, label)) return;
    live -= (long long)bytes;
    by_label[label] -= (long long)bytes;
  }
  // The labels live at the peak, largest first.
  static std::string peak_labels() {
    std::vector<std::pair<long long, std::string>> sizes;
    for (const auto& [label, bytes] : at_peak)
      if (bytes > 0) sizes.emplace_back(bytes, label);
    std::sort(sizes.rbegin(), sizes.rend());
    std::string text;
    for (const auto& [bytes, label] : sizes) text += "\n  " + label + ": " + std::to_string(bytes);
    return text;
  }
};

}  // namespace

// The plan says what a migration holds, and is the least it can: the bytes a migration allocates in the backend's
// memory space (Kokkos' allocation hooks) peak at its total_bytes while it is built and migrates a shot, within 1%
// and the two simulations' reduction buffers for largest_magnitude (4 KiB each on hosts, 1 MiB on GPUs: fixed, not
// counted by the plan; the damping profiles and corner weights make the rest, 15 KB of 14 MB on hosts); every other
// segment of the interval needs more; the interval is the largest whose imaging rate keeps the wavelet's band
// (2.5 f0, wave::wavelet_upper_frequency's contract) below Nyquist. The GPU run found a 64 MiB staging buffer for
// the model that a small grid did not need. In a TTI medium (its states four fields, the adjoint's two Born weights
// per image and the transposed step's two) for either imaging condition too.
TEST(TEST_CATEGORY, MigrationPlanIsWhatItAllocatesAndTheLeast) {
  using seis::imaging::ImagingCondition;
  std::mt19937 rng(seis::test::test_seed());
  for (const bool tti : {false, true})
    for (const auto condition : {ImagingCondition::correlation, ImagingCondition::adjoint}) {
      if (!tti && condition == ImagingCondition::adjoint) continue;
      auto s = migration_setup();
      if (tti) {
        seis::test::randomise_anisotropy(s, false, rng);
        s.dt = 0.9 * seis::wave::stable_dt(s);
      }
      // 0.06 s: a plan of four or five intervals (f0 15 Hz), in a sixth of the setup's 0.36 s: the sanitizer preset
      // found the test its slowest at 0.36 s (the TTI step the slower).
      s.steps = int(0.06 / s.dt);
      const std::string name = std::string(tti ? "TTI " : "") + seis::imaging::to_string(condition);
      const seis::imaging::MigrationOptions options{0, 0, condition};
      const auto plan = seis::imaging::plan_migration(s, options, std::size_t(1) << 40);
      EXPECT_GT(1.0 / (2.0 * plan.interval * s.dt), 2.5 * s.f0) << name;
      EXPECT_LE(1.0 / (2.0 * (plan.interval + 1) * s.dt), 2.5 * s.f0) << name;
      for (int segment = plan.interval; segment < s.steps + plan.interval; segment += plan.interval)
        EXPECT_GE(seis::imaging::plan_migration(s, {0, segment, condition}, std::size_t(1) << 40).total_bytes,
                  plan.total_bytes)
            << name << ": segment " << segment << " against the plan's " << plan.segment;

      Allocations::space = TEST_EXECSPACE::memory_space::name();
      Allocations::live = Allocations::peak = 0;
      Allocations::by_label.clear();
      Kokkos::Tools::Experimental::set_allocate_data_callback(Allocations::allocated);
      Kokkos::Tools::Experimental::set_deallocate_data_callback(Allocations::freed);
      {
        seis::imaging::Migration<TEST_EXECSPACE> migration(s, options, plan.total_bytes);
        migration.migrate(s.sources, s.wavelet, s.f0, s.receivers,
                          std::vector<float>(s.receivers.size() * std::size_t(s.steps), 1.0f));
      }
      Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr);
      Kokkos::Tools::Experimental::set_deallocate_data_callback(nullptr);
      const double reductions = 2.0 * 4 * (seis::is_gpu_space<TEST_EXECSPACE>() ? 1 << 18 : 1 << 10);
      EXPECT_LE(std::abs(double(Allocations::peak) - reductions - double(plan.total_bytes)),
                0.01 * double(plan.total_bytes))
          << name << ": the migration's allocations peaked at " << Allocations::peak << " bytes, its plan says "
          << plan.total_bytes << "; live at the peak:" << Allocations::peak_labels();
    }
}

// Recorded gathers read back for imaging: seis-wave's own SEG-Y, other scalars as SEG-Y defines them, and the
// refusals of a gather that does not fit the run (each naming the value, the expected one and the trace).
#include <gtest/gtest.h>
#include <segyio/segy.h>
#include <sys/stat.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <utility>

#include "seis/core/error.hpp"
#include "seis/io/gather.hpp"
#include "seis/io/outputs.hpp"

namespace {

namespace fs = std::filesystem;
using seis::io::GatherGeometry;
using seis::wave::Point;

struct Recorded {
  std::string path;
  GatherGeometry geometry;
  std::vector<float> traces;
};

// A seis-wave seismogram: 5 receivers off the centimetre grid, 37 samples of random values at 2 ms.
Recorded recorded(const std::string& name) {
  Recorded r;
  r.path = (fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()) + ".sgy")).string();
  r.geometry.source = {1234.56, 789.01, 40.0};
  for (int n = 0; n < 5; ++n) r.geometry.receivers.push_back({100.004 + 250.3 * n, 600.5 - 20 * n, 10.0 + 5 * n});
  r.geometry.samples = 37;
  r.geometry.dt = 0.002;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> value(-1, 1);
  r.traces.resize(5 * 37);
  for (float& v : r.traces) v = value(rng);
  seis::io::write_seismogram(r.path, r.traces, 37, 0.002, r.geometry.receivers, r.geometry.source, 12);
  return r;
}

// Rewrites every trace header of `path` with `edit(trace, header)`.
void edit_headers(const std::string& path, const std::function<void(int, char*)>& edit) {
  segy_file* file = segy_open(path.c_str(), "r+b");
  ASSERT_NE(file, nullptr);
  char binary[SEGY_BINARY_HEADER_SIZE];
  ASSERT_EQ(segy_binheader(file, binary), SEGY_OK);
  const long trace0 = segy_trace0(binary);
  const int bytes = segy_trsize(segy_format(binary), segy_samples(binary));
  int count = 0;
  ASSERT_EQ(segy_traces(file, &count, trace0, bytes), SEGY_OK);
  for (int t = 0; t < count; ++t) {
    char header[SEGY_TRACE_HEADER_SIZE];
    ASSERT_EQ(segy_traceheader(file, t, header, trace0, bytes), SEGY_OK);
    edit(t, header);
    ASSERT_EQ(segy_write_traceheader(file, t, header, trace0, bytes), SEGY_OK);
  }
  ASSERT_EQ(segy_close(file), SEGY_OK);
}

int get(const char* header, int field) {
  int v = 0;
  segy_get_field(header, field, &v);
  return v;
}

std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const seis::InvalidArgument& e) {
    return e.what();
  }
  return "";
}

void expect_near(const Point& a, const Point& b, double tolerance) {
  EXPECT_NEAR(a.x, b.x, tolerance);
  EXPECT_NEAR(a.y, b.y, tolerance);
  EXPECT_NEAR(a.z, b.z, tolerance);
}

TEST(Gather, ReadsBackWhatSeisWaveWrote) {
  const Recorded r = recorded("gather-own");
  auto g = seis::io::read_gather(r.path);
  EXPECT_EQ(g.samples, 37);
  EXPECT_DOUBLE_EQ(g.dt, 0.002);
  EXPECT_EQ(g.record, 12);
  EXPECT_EQ(g.traces, r.traces);
  expect_near(g.source, r.geometry.source, 0.005);
  ASSERT_EQ(g.receivers.size(), 5u);
  for (int n = 0; n < 5; ++n) expect_near(g.receivers[n], r.geometry.receivers[n], 0.005);
  EXPECT_EQ(refusal([&] { seis::io::fit_gather(g, r.path, r.geometry); }), "");
  fs::remove(r.path);
}

// The coordinate scalar (bytes 71-72) for x and y, the elevation scalar (69-70) for the depths, each as SEG-Y
// defines it: decimetres under -10, units of 2 m under +2 (a positive scalar multiplies), metres under 0 (read as
// 1), millimetres under -1000; the two scalars differ in every case (one applied for the other moves a position by
// a factor of 5 at least), and each position lies within half its unit.
TEST(Gather, AppliesTheCoordinateAndElevationScalarsEachToItsOwn) {
  for (const auto& [xy, elevation] : {std::pair{-10, 2}, std::pair{2, -10}, std::pair{0, -1000}, std::pair{-1000, 0}}) {
    const Recorded r = recorded("gather-scalars");
    const auto unit = [](int scalar) { return scalar < 0 ? 1.0 / -scalar : scalar > 0 ? scalar : 1.0; };
    edit_headers(r.path, [&](int, char* h) {
      for (const int f : {SEGY_TR_SOURCE_X, SEGY_TR_SOURCE_Y, SEGY_TR_GROUP_X, SEGY_TR_GROUP_Y})
        segy_set_field(h, f, int(std::lround(get(h, f) / 100.0 / unit(xy))));
      for (const int f : {SEGY_TR_SOURCE_DEPTH, SEGY_TR_RECV_GROUP_ELEV})
        segy_set_field(h, f, int(std::lround(get(h, f) / 100.0 / unit(elevation))));
      segy_set_field(h, SEGY_TR_SOURCE_GROUP_SCALAR, xy);
      segy_set_field(h, SEGY_TR_ELEV_SCALAR, elevation);
    });
    const auto g = seis::io::read_gather(r.path);
    SCOPED_TRACE("coordinate scalar " + std::to_string(xy) + ", elevation scalar " + std::to_string(elevation));
    const double horizontal = unit(xy) / 2 + 0.005, vertical = unit(elevation) / 2 + 0.005;
    const auto expect_at = [&](const Point& got, const Point& want) {
      EXPECT_NEAR(got.x, want.x, horizontal);
      EXPECT_NEAR(got.y, want.y, horizontal);
      EXPECT_NEAR(got.z, want.z, vertical);
    };
    expect_at(g.source, r.geometry.source);
    for (int n = 0; n < 5; ++n) expect_at(g.receivers[n], r.geometry.receivers[n]);
    fs::remove(r.path);
  }
}

// Files that segyio's Python writer made (tests/data/segy/make_layouts.py), not the project: IBM floats, little-endian
// bytes, two extended textual headers, traces in another order than the run's receivers; the coordinate and
// elevation scalars differ in each. Every one reads as the same shot, its traces in the run's order once fitted.
TEST(Gather, ReadsLayoutsThatSegyioWrote) {
  GatherGeometry run;
  run.source = {120, 80, 30};
  for (int r = 0; r < 5; ++r) run.receivers.push_back({50.0 + 20 * r, 40.0 + 10 * r, 10.0 + 5 * r});
  run.samples = 12;
  run.dt = 0.002;
  for (const char* name :
       {"ibm-big-endian.sgy", "ieee-little-endian.sgy", "extended-textual-headers.sgy", "traces-reordered.sgy"}) {
    SCOPED_TRACE(name);
    const std::string path = std::string(SEIS_TEST_DATA) + "/segy/" + name;
    auto g = seis::io::read_gather(path);
    EXPECT_EQ(g.record, 7);
    EXPECT_EQ(refusal([&] { seis::io::fit_gather(g, path, run); }), "");
    expect_near(g.source, run.source, 1e-9);
    ASSERT_EQ(g.receivers.size(), 5u);
    for (int r = 0; r < 5; ++r) {
      expect_near(g.receivers[std::size_t(r)], run.receivers[std::size_t(r)], 1e-9);
      for (int t = 0; t < 12; ++t) EXPECT_EQ(g.traces[std::size_t(r * 12 + t)], (t - 3 * r) / 8.0f) << r << " " << t;
    }
  }
}

TEST(Gather, RefusesWhatDoesNotFitTheRun) {
  const Recorded r = recorded("gather-refusals");
  const auto g = seis::io::read_gather(r.path);
  const auto check = [&](const GatherGeometry& e) {
    auto copy = g;
    return refusal([&] { seis::io::fit_gather(copy, r.path, e); });
  };
  GatherGeometry e = r.geometry;
  e.receivers.pop_back();
  EXPECT_NE(check(e).find("5 traces, the run has 4 receivers"), std::string::npos) << check(e);
  e = r.geometry;
  e.samples = 40;
  EXPECT_NE(check(e).find("37 samples per trace, the run needs 40"), std::string::npos) << check(e);
  e = r.geometry;
  e.dt = 0.001;
  EXPECT_NE(check(e).find("sample interval 2000 us, the run's is 1000 us"), std::string::npos) << check(e);
  e = r.geometry;
  e.receivers[3].y += 0.5;
  EXPECT_NE(
      check(e).find("the run's receiver 4 at (850.904, 541, 25) m has no trace within 0.01 m: the nearest is trace "
                    "4 at (850.9, 540.5, 25) m, 0.5"),
      std::string::npos)
      << check(e);
  // Two receivers' positions exchanged in the run: each trace is another receiver's.
  e = r.geometry;
  e.receivers[1] = e.receivers[0];
  EXPECT_NE(check(e).find("the run's receiver 2 at (100.004, 600.5, 10) m has no trace of its own: trace 1 at"),
            std::string::npos)
      << check(e);
  e = r.geometry;
  e.source.z += 0.02;
  EXPECT_NE(check(e).find("source at (1234.56"), std::string::npos) << check(e);
  // Within seis-wave's centimetre rounding: accepted.
  e = r.geometry;
  e.receivers[2].x += 0.004;
  EXPECT_EQ(check(e), "");

  // Files: a trace of another interval, a second source, another unit, a missing file.
  edit_headers(r.path, [](int t, char* h) {
    if (t == 2) segy_set_field(h, SEGY_TR_SAMPLE_INTER, 1000);
  });
  EXPECT_NE(refusal([&] {
              seis::io::read_gather(r.path);
            }).find("trace 3 has a sample interval of 1000 us, the binary header says 2000"),
            std::string::npos);
  edit_headers(r.path, [](int t, char* h) {
    segy_set_field(h, SEGY_TR_SAMPLE_INTER, 2000);
    if (t == 4) segy_set_field(h, SEGY_TR_SOURCE_X, get(h, SEGY_TR_SOURCE_X) + 1000);
  });
  EXPECT_NE(refusal([&] { seis::io::read_gather(r.path); }).find("trace 5 has its source at (1244.56"),
            std::string::npos);
  edit_headers(r.path, [](int t, char* h) {
    if (t == 4) segy_set_field(h, SEGY_TR_SOURCE_X, get(h, SEGY_TR_SOURCE_X) - 1000);
    if (t == 1) segy_set_field(h, SEGY_TR_COORD_UNITS, 2);
  });
  EXPECT_NE(refusal([&] { seis::io::read_gather(r.path); }).find("trace 2 gives coordinate units 2"),
            std::string::npos);
  fs::remove(r.path);
  EXPECT_NE(refusal([&] { seis::io::read_gather(r.path); }).find("does not exist"), std::string::npos);
  ASSERT_EQ(::mkfifo(r.path.c_str(), 0644), 0);
  EXPECT_NE(refusal([&] { seis::io::read_gather(r.path); }).find("is a FIFO, not a regular file"), std::string::npos);
  fs::remove(r.path);
}

}  // namespace

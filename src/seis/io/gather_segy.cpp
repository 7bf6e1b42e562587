// Recorded gathers read through segyio's C API, and checked against a run's geometry.
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <memory>
#include <sstream>
#include <utility>

#include "seis/core/error.hpp"
#include "seis/io/gather.hpp"
#include "seis/io/segy_input.hpp"

namespace seis::io {

namespace {

int field(const char* header, int which, const std::string& path, int trace) {
  int value = 0;
  require(segy_get_field(header, which, &value) == SEGY_OK, "gather ", path, ": trace ", trace + 1,
          ": header field at byte ", which, " unreadable");
  return value;
}

// SEG-Y's scalar: negative divides by its magnitude, positive multiplies, 0 means 1.
double scaled(int value, int scalar) {
  if (scalar < 0) return double(value) / -scalar;
  if (scalar > 0) return double(value) * scalar;
  return value;
}

double distance(const wave::Point& a, const wave::Point& b) {
  return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z));
}

}  // namespace

Gather read_gather(const std::string& path) {
  SegyInput in = open_segy(path, "gather");
  Gather g;
  g.samples = in.samples;
  int interval = 0;
  require(segy_get_bfield(in.binary, SEGY_BIN_INTERVAL, &interval) == SEGY_OK, "gather ", path,
          ": binary header unreadable");
  require(interval > 0, "gather ", path, ": a sample interval of ", interval,
          " us in the binary header (it must be positive)");
  g.dt = interval * 1e-6;
  const int count = in.traces;
  g.receivers.resize(std::size_t(count));
  g.traces.resize(std::size_t(count) * std::size_t(g.samples));
  for (int t = 0; t < count; ++t) {
    char header[SEGY_TRACE_HEADER_SIZE];
    require(segy_traceheader(in.file.get(), t, header, in.trace0, in.trace_bytes) == SEGY_OK, "gather ", path,
            ": trace ", t + 1, ": header unreadable");
    const int samples = field(header, SEGY_TR_SAMPLE_COUNT, path, t);
    const int trace_interval = field(header, SEGY_TR_SAMPLE_INTER, path, t);
    require(samples == g.samples, "gather ", path, ": trace ", t + 1, " has ", samples,
            " samples, the binary header says ", g.samples);
    require(trace_interval == interval, "gather ", path, ": trace ", t + 1, " has a sample interval of ",
            trace_interval, " us, the binary header says ", interval);
    const int units = field(header, SEGY_TR_COORD_UNITS, path, t);
    require(units == 0 || units == 1, "gather ", path, ": trace ", t + 1, " gives coordinate units ", units,
            " (1, length, needed)");
    const int xy = field(header, SEGY_TR_SOURCE_GROUP_SCALAR, path, t);
    const int elevation = field(header, SEGY_TR_ELEV_SCALAR, path, t);
    const wave::Point source{scaled(field(header, SEGY_TR_SOURCE_X, path, t), xy),
                             scaled(field(header, SEGY_TR_SOURCE_Y, path, t), xy),
                             scaled(field(header, SEGY_TR_SOURCE_DEPTH, path, t), elevation)};
    g.receivers[std::size_t(t)] = {scaled(field(header, SEGY_TR_GROUP_X, path, t), xy),
                                   scaled(field(header, SEGY_TR_GROUP_Y, path, t), xy),
                                   -scaled(field(header, SEGY_TR_RECV_GROUP_ELEV, path, t), elevation)};
    if (t == 0) {
      g.source = source;
      g.record = field(header, SEGY_TR_FIELD_RECORD, path, t);
    }
    require(distance(source, g.source) == 0, "gather ", path, ": trace ", t + 1, " has its source at (", source.x, ", ",
            source.y, ", ", source.z, ") m, trace 1 at (", g.source.x, ", ", g.source.y, ", ", g.source.z,
            ") m: a gather holds one shot");
    float* samples_of = g.traces.data() + std::size_t(t) * std::size_t(g.samples);
    require(segy_readtrace(in.file.get(), t, samples_of, in.trace0, in.trace_bytes) == SEGY_OK &&
                segy_to_native(in.format, g.samples, samples_of) == SEGY_OK,
            "gather ", path, ": trace ", t + 1, " unreadable");
    // A NaN or an infinity would spread through the receiver wavefield into the whole image.
    const float* bad = std::find_if(samples_of, samples_of + g.samples, [](float v) { return !std::isfinite(v); });
    require(bad == samples_of + g.samples, "gather ", path, ": trace ", t + 1, " sample ", bad - samples_of + 1,
            " (t = ", double(bad - samples_of) * g.dt, " s) is ", *bad, ": observed data must be finite");
  }
  return g;
}

void fit_gather(Gather& g, const std::string& path, const GatherGeometry& expected, double tolerance) {
  require(g.receivers.size() == expected.receivers.size(), "gather ", path, ": ", g.receivers.size(),
          " traces, the run has ", expected.receivers.size(), " receivers");
  require(g.samples == expected.samples, "gather ", path, ": ", g.samples, " samples per trace, the run needs ",
          expected.samples);
  // The header holds whole microseconds.
  require(std::abs(g.dt - expected.dt) < 0.5e-6, "gather ", path, ": sample interval ", g.dt * 1e6,
          " us, the run's is ", expected.dt * 1e6, " us");
  const auto place = [](const wave::Point& p) {
    std::ostringstream text;
    text << std::setprecision(10) << "(" << p.x << ", " << p.y << ", " << p.z << ") m";
    return text.str();
  };
  require(distance(g.source, expected.source) <= tolerance, "gather ", path, ": source at ", place(g.source),
          ", the run's at ", place(expected.source), " (", distance(g.source, expected.source), " m apart, ", tolerance,
          " m allowed)");
  const std::size_t count = g.receivers.size();
  bool in_order = true;
  for (std::size_t r = 0; r < count && in_order; ++r)
    in_order = distance(g.receivers[r], expected.receivers[r]) <= tolerance;
  if (in_order) return;
  // Traces by x, each receiver's candidates those within tolerance of its x.
  std::vector<std::size_t> by_x(count);
  for (std::size_t t = 0; t < count; ++t) by_x[t] = t;
  std::sort(by_x.begin(), by_x.end(),
            [&](std::size_t a, std::size_t b) { return g.receivers[a].x < g.receivers[b].x; });
  std::vector<char> taken(count, 0);
  std::vector<std::size_t> trace_of(count);
  for (std::size_t r = 0; r < count; ++r) {
    const wave::Point& want = expected.receivers[r];
    auto first = std::lower_bound(by_x.begin(), by_x.end(), want.x - tolerance,
                                  [&](std::size_t t, double x) { return g.receivers[t].x < x; });
    std::size_t best = count, nearest = count;
    for (auto it = first; it != by_x.end() && g.receivers[*it].x <= want.x + tolerance; ++it) {
      const double apart = distance(g.receivers[*it], want);
      if (apart > tolerance) continue;
      if (nearest == count || apart < distance(g.receivers[nearest], want)) nearest = *it;
      if (!taken[*it] && (best == count || apart < distance(g.receivers[best], want))) best = *it;
    }
    if (best == count) {
      // Each message built only when it is the one: the arguments are evaluated whether or not it is.
      if (nearest != count)
        fail("gather ", path, ": the run's receiver ", r + 1, " at ", place(want), " has no trace of its own: trace ",
             nearest + 1, " at ", place(g.receivers[nearest]), " is another receiver's");
      std::size_t closest = 0;
      for (std::size_t t = 1; t < count; ++t)
        if (distance(g.receivers[t], want) < distance(g.receivers[closest], want)) closest = t;
      fail("gather ", path, ": the run's receiver ", r + 1, " at ", place(want), " has no trace within ", tolerance,
           " m: the nearest is trace ", closest + 1, " at ", place(g.receivers[closest]), ", ",
           distance(g.receivers[closest], want), " m apart");
    }
    taken[best] = 1;
    trace_of[r] = best;
  }
  const std::size_t n = std::size_t(g.samples);
  std::vector<float> traces(g.traces.size());
  std::vector<wave::Point> receivers(count);
  for (std::size_t r = 0; r < count; ++r) {
    std::copy_n(g.traces.begin() + std::ptrdiff_t(trace_of[r] * n), n, traces.begin() + std::ptrdiff_t(r * n));
    receivers[r] = g.receivers[trace_of[r]];
  }
  g.traces = std::move(traces);
  g.receivers = std::move(receivers);
}

}  // namespace seis::io

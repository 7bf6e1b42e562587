// Recorded gathers read through segyio's C API, and checked against a run's geometry.
#include <segyio/segy.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <memory>
#include <sstream>

#include "seis/core/error.hpp"
#include "seis/io/gather.hpp"
#include "seis/io/input_file.hpp"

namespace seis::io {

namespace {

struct Closer {
  void operator()(segy_file* f) const { segy_close(f); }
};

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
  require_regular_file(path, "gather");
  std::unique_ptr<segy_file, Closer> file(segy_open(path.c_str(), "rb"));
  require(file != nullptr, "gather ", path, ": cannot be opened");
  char binary[SEGY_BINARY_HEADER_SIZE];
  require(segy_binheader(file.get(), binary) == SEGY_OK, "gather ", path, ": binary header unreadable");
  Gather g;
  g.samples = segy_samples(binary);
  const int format = segy_format(binary);
  int interval = 0;
  require(segy_get_bfield(binary, SEGY_BIN_INTERVAL, &interval) == SEGY_OK, "gather ", path,
          ": binary header unreadable");
  require(format == SEGY_IEEE_FLOAT_4_BYTE || format == SEGY_IBM_FLOAT_4_BYTE, "gather ", path, ": sample format ",
          format, " (IEEE or IBM float32 needed)");
  require(g.samples > 0 && interval > 0, "gather ", path, ": ", g.samples, " samples at ", interval,
          " us in the binary header (both must be positive)");
  g.dt = interval * 1e-6;
  const long trace0 = segy_trace0(binary);
  const int bytes = segy_trsize(format, g.samples);
  int count = 0;
  require(segy_traces(file.get(), &count, trace0, bytes) == SEGY_OK && count > 0, "gather ", path,
          ": no whole trace of ", g.samples, " samples after the headers");
  g.receivers.resize(std::size_t(count));
  g.traces.resize(std::size_t(count) * std::size_t(g.samples));
  for (int t = 0; t < count; ++t) {
    char header[SEGY_TRACE_HEADER_SIZE];
    require(segy_traceheader(file.get(), t, header, trace0, bytes) == SEGY_OK, "gather ", path, ": trace ", t + 1,
            ": header unreadable");
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
    require(segy_readtrace(file.get(), t, samples_of, trace0, bytes) == SEGY_OK &&
                segy_to_native(format, g.samples, samples_of) == SEGY_OK,
            "gather ", path, ": trace ", t + 1, " unreadable");
    // A NaN or an infinity would spread through the receiver wavefield into the whole image.
    const float* bad = std::find_if(samples_of, samples_of + g.samples, [](float v) { return !std::isfinite(v); });
    require(bad == samples_of + g.samples, "gather ", path, ": trace ", t + 1, " sample ", bad - samples_of + 1,
            " (t = ", double(bad - samples_of) * g.dt, " s) is ", *bad, ": observed data must be finite");
  }
  return g;
}

void check_gather(const Gather& g, const std::string& path, const GatherGeometry& expected, double tolerance) {
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
  for (std::size_t r = 0; r < g.receivers.size(); ++r) {
    const double apart = distance(g.receivers[r], expected.receivers[r]);
    require(apart <= tolerance, "gather ", path, ": trace ", r + 1, " recorded at ", place(g.receivers[r]),
            ", the run's receiver ", r + 1, " is at ", place(expected.receivers[r]), " (", apart, " m apart, ",
            tolerance, " m allowed)");
  }
}

}  // namespace seis::io

// SEG-Y through segyio's C API.
#include <segyio/segy.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <iomanip>
#include <memory>
#include <sstream>
#include <utility>

#include "seis/core/error.hpp"
#include "seis/io/atomic_file.hpp"
#include "seis/io/outputs.hpp"
#include "seis/io/segy_input.hpp"
#include "seis/io/volume.hpp"

namespace seis::io {

namespace {

using File = std::unique_ptr<segy_file, SegyCloser>;

void check(int status, const std::string& what, const std::string& path) {
  require(status == SEGY_OK, "SEG-Y ", path, ": ", what, " failed (segyio error ", status, ")");
}

int centimetres(double metres) { return static_cast<int>(std::lround(metres * 100.0)); }

// Bytes 37-40 take no scalar: the source-receiver distance in whole metres, signed as along a line, negative where the
// receiver lies at smaller x than the source (at equal x, smaller y).
int signed_offset(const wave::Point& source, const wave::Point& receiver) {
  const double dx = receiver.x - source.x, dy = receiver.y - source.y;
  const bool behind = dx < 0 || (dx == 0 && dy < 0);
  return static_cast<int>(std::lround(std::hypot(dx, dy))) * (behind ? -1 : 1);
}

// A header field's number (segyio's SEGY_TR_* or SEGY_BIN_*) and value.
using Fields = std::vector<std::pair<int, int>>;

// `count` traces of `samples` IEEE float32 samples from `values` ([trace][sample]) behind a text header of `lines`
// and a binary header of `binary` (samples, format, trace count and revision added), trace t's header `header(t)`.
void write_segy(const std::string& path, const std::vector<std::string>& lines, Fields binary_fields, int count,
                int samples, const std::function<Fields(int)>& header_of, const std::vector<float>& values) {
  File file(segy_open(path.c_str(), "r+b"));
  require(file != nullptr, "SEG-Y ", path, ": cannot be opened for writing");

  char text[SEGY_TEXT_HEADER_SIZE + 1];
  std::memset(text, ' ', SEGY_TEXT_HEADER_SIZE);
  for (std::size_t l = 0; l < lines.size() && l < 40; ++l)
    std::memcpy(text + 80 * l, lines[l].data(), std::min<std::size_t>(80, lines[l].size()));
  text[SEGY_TEXT_HEADER_SIZE] = '\0';
  check(segy_write_textheader(file.get(), 0, text), "text header", path);

  char binary[SEGY_BINARY_HEADER_SIZE] = {};
  binary_fields.insert(binary_fields.end(), {{SEGY_BIN_SAMPLES, samples},
                                             {SEGY_BIN_FORMAT, SEGY_IEEE_FLOAT_4_BYTE},
                                             {SEGY_BIN_TRACES, count},
                                             {SEGY_BIN_SEGY_REVISION, 0x0100}});
  for (const auto& [field, value] : binary_fields) check(segy_set_bfield(binary, field, value), "binary header", path);
  check(segy_write_binheader(file.get(), binary), "binary header", path);

  const long trace0 = SEGY_TEXT_HEADER_SIZE + SEGY_BINARY_HEADER_SIZE;
  const int bytes = segy_trsize(SEGY_IEEE_FLOAT_4_BYTE, samples);
  std::vector<float> trace(static_cast<std::size_t>(samples));
  for (int t = 0; t < count; ++t) {
    char header[SEGY_TRACE_HEADER_SIZE] = {};
    for (const auto& [field, value] : header_of(t)) check(segy_set_field(header, field, value), "trace header", path);
    check(segy_write_traceheader(file.get(), t, header, trace0, bytes), "trace header", path);
    std::copy_n(values.begin() + std::ptrdiff_t(std::size_t(t) * std::size_t(samples)), samples, trace.begin());
    check(segy_from_native(SEGY_IEEE_FLOAT_4_BYTE, samples, trace.data()), "conversion", path);
    check(segy_writetrace(file.get(), t, trace.data(), trace0, bytes), "trace", path);
  }
  // segyio's writes are buffered: the last of them reach the file (or fail for want of space) at the close.
  check(segy_close(file.release()), "closing", path);
}

}  // namespace

void check_seismogram(int samples, double dt) {
  require(samples <= 65535, "seismogram: ", samples, " samples per trace, SEG-Y holds at most 65535");
  const double interval = std::round(dt * 1e6);
  require(interval >= 1 && interval <= 65535, "seismogram: sample interval ", dt * 1e6,
          " us does not fit SEG-Y's 1..65535 us");
  // The header holds whole microseconds: a rounded interval would let the traces drift against their times.
  require(std::abs(dt * 1e6 - interval) < 1e-6 * interval, "seismogram: sample interval ", dt * 1e6,
          " us is not a whole number of microseconds (--trace-dt)");
}

std::uintmax_t seismogram_bytes(std::size_t traces, int samples) {
  return SEGY_TEXT_HEADER_SIZE + SEGY_BINARY_HEADER_SIZE +
         std::uintmax_t(traces) * std::uintmax_t(SEGY_TRACE_HEADER_SIZE + segy_trsize(SEGY_IEEE_FLOAT_4_BYTE, samples));
}

void write_seismogram(const std::string& path, const std::vector<float>& traces, int samples, double dt,
                      const std::vector<wave::Point>& receivers, const wave::Point& source, int record) {
  const int count = static_cast<int>(receivers.size());
  require(traces.size() == std::size_t(count) * std::size_t(samples), "seismogram: ", traces.size(), " samples for ",
          count, " traces of ", samples);
  check_seismogram(samples, dt);
  const int interval = static_cast<int>(std::lround(dt * 1e6));
  require(record >= 1, "seismogram: field record number ", record, " must be >= 1");
  const std::vector<std::string> lines = {
      "C 1 SEIS-WAVE ACOUSTIC MODELLING (SEISTENCIL)", "C 2 ONE TRACE PER RECEIVER, IEEE FLOAT32",
      "C 3 COORDINATES IN CENTIMETRES (SCALAR -100)", "C 4 RECEIVER DEPTH IN GROUP ELEVATION (NEG)",
      "C 5 OFFSET IN WHOLE METRES, NEGATIVE WHERE THE RECEIVER LIES AT SMALLER X (THEN Y)"};
  const auto header_of = [&](int r) -> Fields {
    const wave::Point& p = receivers[std::size_t(r)];
    return {{SEGY_TR_SEQ_LINE, r + 1},
            {SEGY_TR_SEQ_FILE, r + 1},
            {SEGY_TR_FIELD_RECORD, record},
            {SEGY_TR_NUMBER_ORIG_FIELD, r + 1},
            {SEGY_TR_TRACE_ID, 1},
            {SEGY_TR_SOURCE_GROUP_SCALAR, -100},
            {SEGY_TR_ELEV_SCALAR, -100},
            {SEGY_TR_SOURCE_X, centimetres(source.x)},
            {SEGY_TR_SOURCE_Y, centimetres(source.y)},
            {SEGY_TR_SOURCE_DEPTH, centimetres(source.z)},
            {SEGY_TR_GROUP_X, centimetres(p.x)},
            {SEGY_TR_GROUP_Y, centimetres(p.y)},
            {SEGY_TR_RECV_GROUP_ELEV, -centimetres(p.z)},
            {SEGY_TR_OFFSET, signed_offset(source, p)},
            {SEGY_TR_SAMPLE_COUNT, samples},
            {SEGY_TR_SAMPLE_INTER, interval},
            {SEGY_TR_COORD_UNITS, 1}};
  };
  write_atomically(path, [&](const std::string& temporary) {
    write_segy(temporary, lines, {{SEGY_BIN_INTERVAL, interval}}, count, samples, header_of, traces);
  });
}

void write_volume_segy(const std::string& path, const std::vector<float>& values, int nx, int ny, int nz, double h,
                       const std::string& what) {
  require(nx > 0 && ny > 0 && nz > 0 && nz <= 65535, "volume SEG-Y: ", nx, "x", ny, "x", nz,
          " (every size positive, at most 65535 samples per trace)");
  require(values.size() == std::size_t(nx) * std::size_t(ny) * std::size_t(nz), "volume SEG-Y: ", values.size(),
          " values for ", nx, "x", ny, "x", nz);
  require(h > 0 && h * (std::max(nx, ny) - 1) * 100 < 2147483647.0, "volume SEG-Y: spacing ", h,
          " m puts positions beyond SEG-Y's 32-bit centimetres");
  // SEG-Y rev 1 gives depth data's interval in whole metres.
  const int interval = std::abs(h - std::round(h)) < 1e-9 && h <= 65535 ? int(std::lround(h)) : 0;
  std::ostringstream spacing;
  spacing << "C 3 DEPTH STEP AND SPACING H = " << std::setprecision(10) << h
          << " M (SAMPLE INTERVAL FIELD: WHOLE METRES, 0 IF NOT)";
  std::string title = "C 1 SEISTENCIL " + what;
  std::transform(title.begin(), title.end(), title.begin(), [](unsigned char c) { return char(std::toupper(c)); });
  const std::vector<std::string> lines = {
      title, "C 2 TRACE I + NX J: THE COLUMN AT X = I H, Y = J H; SAMPLE K AT DEPTH K H", spacing.str(),
      "C 4 CDP AND GROUP X, Y IN CENTIMETRES (SCALAR -100)", "C 5 INLINE J + 1, CROSSLINE I + 1, IEEE FLOAT32"};
  // The volume is x fastest, then y, then z; a trace is one (i, j) column.
  const std::size_t plane = std::size_t(nx) * std::size_t(ny);
  std::vector<float> traces(values.size());
  for (std::size_t k = 0; k < std::size_t(nz); ++k)
    for (std::size_t c = 0; c < plane; ++c) traces[c * std::size_t(nz) + k] = values[k * plane + c];
  const auto header_of = [&](int t) -> Fields {
    const int i = t % nx, j = t / nx;
    return {{SEGY_TR_SEQ_LINE, t + 1},
            {SEGY_TR_SEQ_FILE, t + 1},
            {SEGY_TR_TRACE_ID, 1},
            {SEGY_TR_SOURCE_GROUP_SCALAR, -100},
            {SEGY_TR_CDP_X, centimetres(i * h)},
            {SEGY_TR_CDP_Y, centimetres(j * h)},
            {SEGY_TR_GROUP_X, centimetres(i * h)},
            {SEGY_TR_GROUP_Y, centimetres(j * h)},
            {SEGY_TR_INLINE, j + 1},
            {SEGY_TR_CROSSLINE, i + 1},
            {SEGY_TR_SAMPLE_COUNT, nz},
            {SEGY_TR_SAMPLE_INTER, interval},
            {SEGY_TR_COORD_UNITS, 1}};
  };
  write_atomically(path, [&](const std::string& temporary) {
    write_segy(temporary, lines, {{SEGY_BIN_INTERVAL, interval}, {SEGY_BIN_MEASUREMENT_SYSTEM, 1}}, nx * ny, nz,
               header_of, traces);
  });
}

std::vector<float> read_velocity_segy(const std::string& path, int nx, int ny, int nz) {
  return read_velocity_segy(path, wave::whole_grid(nx, ny, nz));
}

std::vector<float> read_velocity_segy(const std::string& path, const wave::Subdomain& part, std::size_t* bytes_read,
                                      const std::string& what) {
  const int nx = part.global[0], ny = part.global[1], nz = part.global[2];
  const SegyInput in = open_segy(path, what);
  const int samples = in.samples, format = in.format, bytes = in.trace_bytes;
  const long trace0 = in.trace0;
  require(samples == nz, what, " ", path, ": ", samples, " samples per trace, the grid has nz = ", nz);
  require(in.traces == nx * ny, what, " ", path, ": ", in.traces, " traces, the grid needs nx * ny = ", nx * ny);
  // The part's traces, each from its first to its last depth.
  const int* o = part.offset;
  const int* n = part.size;
  std::vector<float> velocity(part.points()), trace(static_cast<std::size_t>(n[2]));
  for (int j = o[1]; j < o[1] + n[1]; ++j)
    for (int i = o[0]; i < o[0] + n[0]; ++i) {
      check(segy_readsubtr(in.file.get(), j * nx + i, o[2], o[2] + n[2], 1, trace.data(), nullptr, trace0, bytes),
            "reading a trace", path);
      check(segy_to_native(format, n[2], trace.data()), "conversion", path);
      for (int k = 0; k < n[2]; ++k)
        velocity[(std::size_t(k) * n[1] + std::size_t(j - o[1])) * n[0] + std::size_t(i - o[0])] =
            trace[std::size_t(k)];
    }
  if (bytes_read != nullptr) *bytes_read = velocity.size() * sizeof(float);
  return velocity;
}

}  // namespace seis::io

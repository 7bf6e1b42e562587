// SEG-Y through segyio's C API.
#include <segyio/segy.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "seis/core/error.hpp"
#include "seis/io/atomic_file.hpp"
#include "seis/io/outputs.hpp"

namespace seis::io {

namespace {

struct Closer {
  void operator()(segy_file* f) const { segy_close(f); }
};
using File = std::unique_ptr<segy_file, Closer>;

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

void write_segy(const std::string& path, const std::vector<float>& traces, int samples, int interval,
                const std::vector<wave::Point>& receivers, const wave::Point& source, int record) {
  const int count = static_cast<int>(receivers.size());
  File file(segy_open(path.c_str(), "r+b"));
  require(file != nullptr, "SEG-Y ", path, ": cannot be opened for writing");

  char text[SEGY_TEXT_HEADER_SIZE + 1];
  std::memset(text, ' ', SEGY_TEXT_HEADER_SIZE);
  const char* lines[] = {"C 1 SEIS-WAVE ACOUSTIC MODELLING (SEISTENCIL)", "C 2 ONE TRACE PER RECEIVER, IEEE FLOAT32",
                         "C 3 COORDINATES IN CENTIMETRES (SCALAR -100)", "C 4 RECEIVER DEPTH IN GROUP ELEVATION (NEG)",
                         "C 5 OFFSET IN WHOLE METRES, NEGATIVE WHERE THE RECEIVER LIES AT SMALLER X (THEN Y)"};
  for (int l = 0; l < 5; ++l) std::memcpy(text + 80 * l, lines[l], std::strlen(lines[l]));
  text[SEGY_TEXT_HEADER_SIZE] = '\0';
  check(segy_write_textheader(file.get(), 0, text), "text header", path);

  char binary[SEGY_BINARY_HEADER_SIZE] = {};
  check(segy_set_bfield(binary, SEGY_BIN_INTERVAL, interval), "binary header", path);
  check(segy_set_bfield(binary, SEGY_BIN_SAMPLES, samples), "binary header", path);
  check(segy_set_bfield(binary, SEGY_BIN_FORMAT, SEGY_IEEE_FLOAT_4_BYTE), "binary header", path);
  check(segy_set_bfield(binary, SEGY_BIN_TRACES, count), "binary header", path);
  check(segy_set_bfield(binary, SEGY_BIN_SEGY_REVISION, 0x0100), "binary header", path);
  check(segy_write_binheader(file.get(), binary), "binary header", path);

  const long trace0 = SEGY_TEXT_HEADER_SIZE + SEGY_BINARY_HEADER_SIZE;
  const int bytes = segy_trsize(SEGY_IEEE_FLOAT_4_BYTE, samples);
  std::vector<float> trace(static_cast<std::size_t>(samples));
  for (int r = 0; r < count; ++r) {
    char header[SEGY_TRACE_HEADER_SIZE] = {};
    const wave::Point& p = receivers[std::size_t(r)];
    const int fields[][2] = {{SEGY_TR_SEQ_LINE, r + 1},
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
    for (const auto& f : fields) check(segy_set_field(header, f[0], f[1]), "trace header", path);
    check(segy_write_traceheader(file.get(), r, header, trace0, bytes), "trace header", path);
    std::copy_n(traces.begin() + std::ptrdiff_t(std::size_t(r) * samples), samples, trace.begin());
    check(segy_from_native(SEGY_IEEE_FLOAT_4_BYTE, samples, trace.data()), "conversion", path);
    check(segy_writetrace(file.get(), r, trace.data(), trace0, bytes), "trace", path);
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
  write_atomically(path, [&](const std::string& temporary) {
    write_segy(temporary, traces, samples, interval, receivers, source, record);
  });
}

std::vector<float> read_velocity_segy(const std::string& path, int nx, int ny, int nz) {
  return read_velocity_segy(path, wave::whole_grid(nx, ny, nz));
}

std::vector<float> read_velocity_segy(const std::string& path, const wave::Subdomain& part, std::size_t* bytes_read) {
  const int nx = part.global[0], ny = part.global[1], nz = part.global[2];
  File file(segy_open(path.c_str(), "rb"));
  require(file != nullptr, "velocity model ", path, ": cannot be opened");
  char binary[SEGY_BINARY_HEADER_SIZE];
  check(segy_binheader(file.get(), binary), "reading the binary header", path);
  const int samples = segy_samples(binary);
  const int format = segy_format(binary);
  const long trace0 = segy_trace0(binary);
  require(samples == nz, "velocity model ", path, ": ", samples, " samples per trace, the grid has nz = ", nz);
  require(format == SEGY_IEEE_FLOAT_4_BYTE || format == SEGY_IBM_FLOAT_4_BYTE, "velocity model ", path,
          ": sample format ", format, " (IEEE or IBM float32 needed)");
  const int bytes = segy_trsize(format, samples);
  int traces = 0;
  check(segy_traces(file.get(), &traces, trace0, bytes), "counting traces", path);
  require(traces == nx * ny, "velocity model ", path, ": ", traces, " traces, the grid needs nx * ny = ", nx * ny);
  // The part's traces, each from its first to its last depth.
  const int* o = part.offset;
  const int* n = part.size;
  std::vector<float> velocity(part.points()), trace(static_cast<std::size_t>(n[2]));
  for (int j = o[1]; j < o[1] + n[1]; ++j)
    for (int i = o[0]; i < o[0] + n[0]; ++i) {
      check(segy_readsubtr(file.get(), j * nx + i, o[2], o[2] + n[2], 1, trace.data(), nullptr, trace0, bytes),
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

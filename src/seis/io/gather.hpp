#pragma once
// A recorded shot gather read back from SEG-Y, the observed data of imaging: seis-wave's own files
// (seismogram.sgy, shot-NNNNN.sgy) and any other with the same geometry headers. Host-only (segyio).
#include <string>
#include <vector>

#include "seis/wave/setup.hpp"

namespace seis::io {

struct Gather {
  int samples = 0;
  double dt = 0;   // s: the binary header's interval, which every trace header repeats
  int record = 0;  // the field record (shot) number of the first trace
  wave::Point source;
  std::vector<wave::Point> receivers;  // one per trace; depth from the group elevation (negative: below)
  std::vector<float> traces;           // [trace][sample]
};

// Positions come from the trace headers: source x, y and depth and group x and y under the coordinate scalar
// (bytes 71-72), the group elevation under the elevation scalar (69-70), each as SEG-Y defines a scalar (negative:
// divide by its magnitude, positive: multiply, 0: as 1); coordinate units must be length (1) or unset. Refused,
// naming the path and the trace: an unreadable file, samples neither IEEE nor IBM float32, a trace whose sample count
// or interval differs from the binary header's, traces of more than one source position (a gather is one shot).
Gather read_gather(const std::string& path);

// What a run expects of its observed gather.
struct GatherGeometry {
  std::vector<wave::Point> receivers;
  wave::Point source;
  int samples = 0;
  double dt = 0;  // s
};

// Puts the gather's traces in the run's receiver order and refuses a gather that does not fit `expected`: another
// trace count, number of samples or sample interval, the source farther than `tolerance` metres from where the run
// puts it (seis-wave stores centimetres: 0.01 m allows its rounding), or a receiver of the run with no trace of its
// own within `tolerance` of it, naming the value found, the one expected and the trace or receiver. Traces in the
// run's order are kept as they are; others are matched to the receivers by position (the nearest unmatched trace
// within `tolerance`), so that a gather sorted otherwise (by offset, by channel) images as the run's own.
void fit_gather(Gather& gather, const std::string& path, const GatherGeometry& expected, double tolerance = 0.01);

}  // namespace seis::io

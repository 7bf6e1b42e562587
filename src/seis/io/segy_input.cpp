#include "seis/io/segy_input.hpp"

#include "seis/core/error.hpp"
#include "seis/io/input_file.hpp"

namespace seis::io {

namespace {

// The sample formats SEG-Y rev 2 defines (segyio's SEGY_FORMAT).
bool known_format(int code) {
  switch (code) {
    case 1:
    case 2:
    case 3:
    case 5:
    case 6:
    case 8:
    case 9:
    case 10:
    case 11:
    case 12:
    case 15:
    case 16:
      return true;
    default:
      return false;
  }
}

}  // namespace

SegyInput open_segy(const std::string& path, const std::string& what) {
  require_regular_file(path, what);
  SegyInput in;
  in.file.reset(segy_open(path.c_str(), "rb"));
  require(in.file != nullptr, what, " ", path, ": cannot be opened");
  require(segy_binheader(in.file.get(), in.binary) == SEGY_OK, what, " ", path, ": binary header unreadable");
  const int big = segy_format(in.binary);
  if (!known_format(big)) {
    // Read again with the bytes swapped: a little-endian file's format code is a known one that way.
    require(segy_set_format(in.file.get(), SEGY_IEEE_FLOAT_4_BYTE | SEGY_LSB) == SEGY_OK &&
                segy_binheader(in.file.get(), in.binary) == SEGY_OK,
            what, " ", path, ": binary header unreadable");
    require(known_format(segy_format(in.binary)), what, " ", path, ": the sample format code (bytes 3225-3226) is ",
            big, " big-endian and ", segy_format(in.binary),
            " little-endian, neither a SEG-Y format: not a SEG-Y file?");
    in.little_endian = true;
  }
  in.format = segy_format(in.binary);
  require(in.format == SEGY_IEEE_FLOAT_4_BYTE || in.format == SEGY_IBM_FLOAT_4_BYTE, what, " ", path,
          ": sample format ", in.format, " (IEEE or IBM float32 needed)");
  require(segy_set_format(in.file.get(), in.format | (in.little_endian ? SEGY_LSB : 0)) == SEGY_OK, what, " ", path,
          ": sample format ", in.format, " refused by segyio");
  in.samples = segy_samples(in.binary);
  in.trace0 = segy_trace0(in.binary);
  require(in.samples > 0, what, " ", path, ": ", in.samples, " samples per trace in the binary header");
  in.trace_bytes = segy_trsize(in.format, in.samples);
  require(segy_traces(in.file.get(), &in.traces, in.trace0, in.trace_bytes) == SEGY_OK && in.traces > 0, what, " ",
          path, ": no whole trace of ", in.samples, " samples after the headers");
  return in;
}

}  // namespace seis::io

#pragma once
// A SEG-Y file opened for reading through segyio, in either byte order: big-endian as the standard says, or
// little-endian as SEG-Y rev 2 and Seismic Unix allow (segyio assumes big-endian unless told). The byte order is
// the one in which the binary header's sample format is a known SEG-Y code. Host-only (segyio).
#include <segyio/segy.h>

#include <memory>
#include <string>

namespace seis::io {

struct SegyCloser {
  void operator()(segy_file* f) const { segy_close(f); }
};

struct SegyInput {
  std::unique_ptr<segy_file, SegyCloser> file;  // closed with the input
  char binary[SEGY_BINARY_HEADER_SIZE] = {};    // as segyio returns it: big-endian whatever the file's order
  bool little_endian = false;
  int format = 0;       // SEGY_IBM_FLOAT_4_BYTE or SEGY_IEEE_FLOAT_4_BYTE (others refused)
  int samples = 0;      // per trace, from the binary header
  long trace0 = 0;      // the first trace's offset, after any extended textual headers
  int trace_bytes = 0;  // a trace's samples
  int traces = 0;       // whole traces in the file
};

// Opens PATH (a regular file; WHAT names it in every refusal) and reads its binary header; refuses a sample format
// other than IBM or IEEE float32, a file whose format is a known code in neither byte order, and a file without a
// whole trace.
SegyInput open_segy(const std::string& path, const std::string& what);

}  // namespace seis::io

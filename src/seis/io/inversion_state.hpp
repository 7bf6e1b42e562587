#pragma once
// What continues an inversion (seis-wave --invert --restart): written whole after each iterate, atomically and
// last, so that a restart never continues past an iterate whose outputs are not all written. Host-only.
//
//   bytes 0-7   "SEISINV2"
//   8-47        lengths (int64, as the host writes them): fingerprint F, history H, scaling values D, origin values
//               O, optimiser B
//   48-51       CRC-32 (zlib's) of every byte after it
//   then        J(start) (a double), F bytes of fingerprint, H bytes of history (JSON), D doubles of the
//               preconditioner's scaling, O doubles of the smoothing's origin, B bytes of the optimiser's state
#include <string>
#include <vector>

namespace seis::io {

struct InversionState {
  std::string fingerprint;      // the inputs that shaped it ("key value" lines, seis/io/fingerprint.hpp)
  std::string history;          // the iterates' records so far, a JSON array
  double start_misfit = 0;      // J(start), which scales the optimiser's function
  std::vector<double> scaling;  // the preconditioner's, a point each (empty: none)
  std::vector<double> origin;   // the smoothing's, a point each (empty: none)
  std::string optimiser;        // inversion::BoundedLbfgs::state()
};

void write_inversion_state(const std::string& path, const InversionState& state);
// Refuses, naming the path, a file that cannot be read (`missing` says what to do then), is not a state (or is an
// older seis-wave's), or whose size or CRC-32 is not what was written.
InversionState read_inversion_state(const std::string& path, const std::string& missing);

}  // namespace seis::io

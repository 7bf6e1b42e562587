#pragma once
// A migration's partial stack as a file: the shots it holds, the parameters that shaped it (a fingerprint), the
// image (the sum of their correlations), the source illumination and, where asked, the image with respect to the
// density, x fastest, float32, under a CRC-32. Each rank
// group of a migration writes its own, atomically, as its shots finish; a restart skips the shots that some stack
// holds and the final image sums them all, so a crash loses only the shots not yet written. Host-only.
//
//   bytes 0-7    "SEISSTK3"
//   8-23         nx, ny, nz, shot count S (int32, little-endian as the host writes it)
//   24-27        fingerprint length F (int32)
//   28-31        volume count V (int32): 2, or 3 with the density's image
//   32-35        CRC-32 (zlib's) of every byte after it
//   then         S shot numbers (int32), F bytes of fingerprint ("key value" lines, seis/io/fingerprint.hpp),
//                nx ny nz floats of the image, then as many of the illumination (and of the density's image)
#include <string>
#include <vector>

namespace seis::io {

struct Stack {
  int nx = 0, ny = 0, nz = 0;
  std::vector<int> shots;
  std::string fingerprint;
  std::vector<float> image, illumination;
  std::vector<float> density_image;  // empty: not imaged
};

void write_stack(const std::string& path, const Stack& stack);
// The file checked whole against its CRC-32 and its size; with `keep_data` false the volumes are read through but not
// kept. Refuses, naming the path, a file of another format (or of an older seis-wave), of the
// wrong size, or one whose bytes fail the CRC.
Stack read_stack(const std::string& path, bool keep_data = true);

// OUTPUT's stack files (stack-*.bin), sorted by name.
std::vector<std::string> stack_files(const std::string& directory);

}  // namespace seis::io

#pragma once
// A migration's partial stack as a file: the shots it holds, the image (the sum of their correlations) and the
// source illumination, x fastest, float32. Each rank group of a migration writes its own, atomically, as its shots
// finish; a restart skips the shots that some stack holds and the final image sums them all, so a crash loses only
// the shots not yet written. Host-only.
//
//   bytes 0-7    "SEISSTK1"
//   8-19         nx, ny, nz (int32, little-endian as the host writes it)
//   20-23        shot count S (int32), then S shot numbers (int32)
//   then         nx ny nz floats of the image, then as many of the illumination
#include <string>
#include <vector>

namespace seis::io {

struct Stack {
  int nx = 0, ny = 0, nz = 0;
  std::vector<int> shots;
  std::vector<float> image, illumination;
};

void write_stack(const std::string& path, const Stack& stack);
// The whole file, or (header_only) its sizes and shots. Refuses, naming the path, a file of another format or size.
Stack read_stack(const std::string& path, bool header_only = false);

// OUTPUT's stack files (stack-*.bin), sorted by name.
std::vector<std::string> stack_files(const std::string& directory);

}  // namespace seis::io

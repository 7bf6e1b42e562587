#pragma once
// A volume on the grid (a migrated image, its illumination, a velocity model), x fastest, then y, then z (depth):
// as SEG-Y, and as two pictures. Host-only.
#include <string>
#include <vector>

#include "seis/io/picture.hpp"

namespace seis::io {

// nx * ny traces of nz samples, trace i + nx j the column at x = i h, y = j h (the layout seis-wave reads velocity
// models in), IEEE float32, written atomically. Trace headers: the column's position in centimetres at bytes
// 181-184 and 185-188 (CDP x, y) and 81-88 (group x, y), scalar -100, inline j + 1 (189-192), crossline i + 1
// (193-196). The sample interval (binary header 3217-3218, trace header 117-118) holds the depth step in whole
// metres as SEG-Y rev 1 has it for depth data (measurement system 1: metres), 0 where h is not whole; the text
// header states h in any case.
void write_volume_segy(const std::string& path, const std::vector<float>& values, int nx, int ny, int nz, double h,
                       const std::string& what);

// The pictures of a volume: its x-z section at y index `j` (PATH_STEM-xz.png, depth down) and its x-y slice at depth
// index `k` (PATH_STEM-xy.png, y down), axes in metres, cells square with the grid's longest side 600 pixels
// across, titled "`what`: x-z section at y = ... m". `xz` is nz rows of nx, `xy` ny rows of nx (the caller cuts
// them: a decomposed run gathers only these planes), on the colour scale `scale` (sequential for positive
// quantities: a velocity, an illumination). Returns the two paths.
std::vector<std::string> write_sections(const std::string& stem, const std::vector<float>& xz,
                                        const std::vector<float>& xy, int nx, int ny, int nz, double h, int j, int k,
                                        const std::string& what, const std::string& quantity,
                                        ColourScale scale = ColourScale::diverging);

// write_sections of a whole volume held in memory.
std::vector<std::string> write_volume_sections(const std::string& stem, const std::vector<float>& values, int nx,
                                               int ny, int nz, double h, int j, int k, const std::string& what,
                                               const std::string& quantity, ColourScale scale = ColourScale::diverging);

}  // namespace seis::io

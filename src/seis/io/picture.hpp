#pragma once
#include <cstdint>
// Pictures of seis-wave's outputs (a shot gather, wavefield and image sections, the model) as PNG, drawn by cairo:
// signed values on a blue-white-red scale symmetric about zero, positive ones (a velocity, an illumination) on a
// sequential scale, axes with ticks and units, a title and a colour bar. Host-only.
#include <string>
#include <vector>

namespace seis::io {

// A picture's bytes at most: the largest seis-wave draws (a 600 x 800 data area with its margins, 782 x 894 pixels)
// as uncompressed RGBA, which PNG's compression never exceeds by more than its headers. The free-space checks count
// each picture at this.
constexpr std::uintmax_t max_picture_bytes = std::uintmax_t(3) << 20;

// An axis of a picture: its label (with the unit) and the values at the centres of the first and last cells
// (left to right, or top to bottom).
struct PictureAxis {
  std::string label;
  double first = 0, last = 0;
};

// diverging: -clip (blue) .. 0 (white) .. +clip (red), clip a percentile of |value|; sequential: from the
// (100 - percentile)th to the percentile-th percentile of the values, dark violet through green to yellow.
enum class ColourScale { diverging, sequential };

struct Picture {
  std::string title;
  PictureAxis horizontal, vertical;
  std::string quantity;  // what the colours show, e.g. "u (source units / m)"
  // The scale is clipped at this percentile of |value| (so that weak events show beside the direct wave).
  double percentile = 99;
  ColourScale scale = ColourScale::diverging;
  int width = 600, height = 600;  // of the data area, in pixels; the cells are stretched to fill it
};

// Where a picture's parts lie, in pixels: the whole image, the data area and the colour bar (x0, y0 inclusive,
// x1, y1 exclusive).
struct PictureLayout {
  int width = 0, height = 0;
  int data_x0 = 0, data_y0 = 0, data_x1 = 0, data_y1 = 0;
  int bar_x0 = 0, bar_y0 = 0, bar_x1 = 0, bar_y1 = 0;
};
PictureLayout picture_layout(const Picture& picture);

// The colour of value / clip (clipped to [-1, 1]): -1 blue, 0 white, +1 red, as RGB.
void picture_colour(double t, unsigned char rgb[3]);
// The sequential scale's colour at t in [0, 1] (clipped): a five-stop approximation of viridis.
void sequential_colour(double t, unsigned char rgb[3]);

// `values` is rows x columns, row-major, row 0 at the top. Refuses mismatched sizes and empty axes; written
// atomically (seis/io/atomic_file.hpp), a drawing or encoding failure named.
void write_picture(const std::string& path, const std::vector<float>& values, int rows, int columns,
                   const Picture& picture);

}  // namespace seis::io

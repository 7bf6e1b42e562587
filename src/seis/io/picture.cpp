#include "seis/io/picture.hpp"

#include <cairo-ft.h>
#include <cairo.h>
#include <ft2build.h>
#include FT_FREETYPE_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "seis/core/error.hpp"
#include "seis/io/atomic_file.hpp"

// The font carried in the binary (src/CMakeLists.txt embeds DejaVu Sans).
extern const unsigned char seis_picture_font[];
extern const std::size_t seis_picture_font_size;

namespace seis::io {

namespace {

// The embedded font as a cairo face, made once and kept for the process: cairo's "toy" faces go through
// fontconfig, which finds no font on a bare compute node and then draws no text at all.
cairo_font_face_t* picture_face() {
  static cairo_font_face_t* const face = [] {
    FT_Library library = nullptr;
    FT_Face ft = nullptr;
    require(FT_Init_FreeType(&library) == 0 &&
                FT_New_Memory_Face(library, seis_picture_font, FT_Long(seis_picture_font_size), 0, &ft) == 0,
            "the pictures' embedded font cannot be loaded");
    return cairo_ft_font_face_create_for_ft_face(ft, 0);
  }();
  return face;
}

// Margins in pixels: tick labels and the vertical axis's label on the left, the title above, the horizontal
// axis's labels below, the colour bar and its labels on the right.
constexpr int left = 86, top = 40, bottom = 54, bar_gap = 18, bar_width = 18, right = 96;
constexpr double font_size = 13, title_size = 15, bar_label_size = 11, pi = 3.14159265358979323846;

using Surface = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;
using Context = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;

// About `wanted` round tick values (1, 2 or 5 x 10^k apart) inside [lo, hi].
std::vector<double> ticks(double lo, double hi, int wanted) {
  std::vector<double> out;
  const double span = hi - lo;
  if (!(span > 0) || !std::isfinite(span)) return out;
  const double raw = span / wanted, power = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10 * power;
  for (double m : {1.0, 2.0, 5.0})
    if (m * power >= raw) {
      step = m * power;
      break;
    }
  for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step)
    out.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
  return out;
}

std::string number(double v, int digits = 6) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*g", digits, v);
  return text;
}

struct TextSize {
  double width, height;
};
TextSize measure(cairo_t* cr, const std::string& text) {
  cairo_text_extents_t e;
  cairo_text_extents(cr, text.c_str(), &e);
  return {e.x_advance, e.height};
}

// `text` with its anchor at (x, y): ax and ay in [0, 1] place the anchor across and down the text's box.
void label(cairo_t* cr, const std::string& text, double x, double y, double ax, double ay) {
  const TextSize s = measure(cr, text);
  cairo_move_to(cr, x - ax * s.width, y + (1 - ay) * s.height);
  cairo_show_text(cr, text.c_str());
}

// The pixel of value v along an axis of `cells` cells over [from, from + length) pixels.
double place(const PictureAxis& a, int cells, double from, double length, double v) {
  const double step = cells > 1 ? (a.last - a.first) / (cells - 1) : 1.0;
  return from + ((v - a.first) / step + 0.5) * length / cells;
}

void axis_ticks(cairo_t* cr, const PictureAxis& a, int cells, const PictureLayout& l, bool horizontal) {
  const double step = cells > 1 ? (a.last - a.first) / (cells - 1) : 1.0;
  const double lo = std::min(a.first, a.last) - std::abs(step) / 2, hi = std::max(a.first, a.last) + std::abs(step) / 2;
  const double length = horizontal ? l.data_x1 - l.data_x0 : l.data_y1 - l.data_y0;
  for (double v : ticks(lo, hi, horizontal ? std::max(2, int(length / 110)) : std::max(2, int(length / 70)))) {
    const double p = place(a, cells, horizontal ? l.data_x0 : l.data_y0, length, v);
    if (horizontal) {
      cairo_move_to(cr, p, l.data_y1);
      cairo_line_to(cr, p, l.data_y1 + 5);
      label(cr, number(v), p, l.data_y1 + 8, 0.5, 0);
    } else {
      cairo_move_to(cr, l.data_x0, p);
      cairo_line_to(cr, l.data_x0 - 5, p);
      label(cr, number(v), l.data_x0 - 8, p, 1, 0.5);
    }
  }
  cairo_stroke(cr);
  if (horizontal) {
    label(cr, a.label, (l.data_x0 + l.data_x1) / 2.0, l.height - 8, 0.5, 1);
  } else {
    cairo_save(cr);
    cairo_translate(cr, 16, (l.data_y0 + l.data_y1) / 2.0);
    cairo_rotate(cr, -pi / 2);
    label(cr, a.label, 0, 0, 0.5, 0.5);
    cairo_restore(cr);
  }
}

// The values a picture's colours span: -clip .. clip on the diverging scale, percentiles of the values on the
// sequential one.
struct Range {
  double lo = -1, hi = 1;
};

double percentile_of(std::vector<float> values, double percentile) {
  const auto at = static_cast<std::size_t>(std::clamp(percentile, 0.0, 100.0) / 100.0 * double(values.size() - 1));
  std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(at), values.end());
  return values[at];
}

Range range_of(const std::vector<float>& values, const Picture& p) {
  if (p.scale == ColourScale::sequential) {
    const double lo = percentile_of(values, 100 - p.percentile), hi = percentile_of(values, p.percentile);
    return {lo, hi > lo ? hi : lo + 1};
  }
  std::vector<float> magnitude(values.size());
  std::transform(values.begin(), values.end(), magnitude.begin(), [](float v) { return std::abs(v); });
  const double clip = percentile_of(std::move(magnitude), p.percentile);
  return clip > 0 ? Range{-clip, clip} : Range{-1, 1};
}

// The colour of the fraction t (0 at lo, 1 at hi) of a picture's range.
void colour_at(double t, ColourScale scale, unsigned char rgb[3]) {
  if (scale == ColourScale::sequential)
    sequential_colour(t, rgb);
  else
    picture_colour(2 * t - 1, rgb);
}

// The cells as an image of columns x rows pixels, one per value.
Surface cells_image(const std::vector<float>& values, int rows, int columns, const Range& r, ColourScale scale) {
  Surface image(cairo_image_surface_create(CAIRO_FORMAT_RGB24, columns, rows), cairo_surface_destroy);
  require(cairo_surface_status(image.get()) == CAIRO_STATUS_SUCCESS, "a picture of ", columns, " x ", rows,
          " cells cannot be made: ", cairo_status_to_string(cairo_surface_status(image.get())));
  cairo_surface_flush(image.get());
  unsigned char* data = cairo_image_surface_get_data(image.get());
  const int stride = cairo_image_surface_get_stride(image.get());
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < columns; ++x) {
      unsigned char rgb[3];
      colour_at((values[std::size_t(y) * std::size_t(columns) + std::size_t(x)] - r.lo) / (r.hi - r.lo), scale, rgb);
      // RGB24 is a native-endian 32-bit word 0x00RRGGBB.
      auto* pixel = reinterpret_cast<std::uint32_t*>(data + std::ptrdiff_t(y) * stride) + x;
      *pixel = std::uint32_t(rgb[0]) << 16 | std::uint32_t(rgb[1]) << 8 | rgb[2];
    }
  cairo_surface_mark_dirty(image.get());
  return image;
}

cairo_status_t append(void* bytes, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(bytes)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

PictureLayout picture_layout(const Picture& p) {
  PictureLayout l;
  l.data_x0 = left;
  l.data_y0 = top;
  l.data_x1 = left + p.width;
  l.data_y1 = top + p.height;
  l.bar_x0 = l.data_x1 + bar_gap;
  l.bar_x1 = l.bar_x0 + bar_width;
  l.bar_y0 = l.data_y0;
  l.bar_y1 = l.data_y1;
  l.width = l.bar_x1 + right;
  l.height = l.data_y1 + bottom;
  return l;
}

void picture_colour(double t, unsigned char rgb[3]) {
  t = std::clamp(t, -1.0, 1.0);
  const auto fade = static_cast<unsigned char>(std::lround(255.0 * (1.0 - std::abs(t))));
  rgb[0] = t < 0 ? fade : 255;
  rgb[1] = fade;
  rgb[2] = t > 0 ? fade : 255;
}

void sequential_colour(double t, unsigned char rgb[3]) {
  static constexpr double stops[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  const double at = std::clamp(t, 0.0, 1.0) * 4;
  const int i = std::min(3, int(at));
  const double f = at - i;
  for (int c = 0; c < 3; ++c)
    rgb[c] = static_cast<unsigned char>(std::lround(stops[i][c] + f * (stops[i + 1][c] - stops[i][c])));
}

void write_picture(const std::string& path, const std::vector<float>& values, int rows, int columns, const Picture& p) {
  require(rows >= 1 && columns >= 1 && values.size() == std::size_t(rows) * std::size_t(columns), "picture ", path,
          ": ", values.size(), " values for ", rows, " x ", columns, " cells");
  require(p.width >= 16 && p.height >= 16 && p.width <= 8192 && p.height <= 8192, "picture ", path, ": ", p.width,
          " x ", p.height, " pixels must be in 16..8192 each way");
  const Range range = range_of(values, p);
  const PictureLayout l = picture_layout(p);
  Surface surface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, l.width, l.height), cairo_surface_destroy);
  Context context(cairo_create(surface.get()), cairo_destroy);
  cairo_t* cr = context.get();
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);

  // The cells, stretched over the data area: sharp where each covers several pixels, averaged where many share one.
  const Surface cells = cells_image(values, rows, columns, range, p.scale);
  cairo_save(cr);
  cairo_translate(cr, l.data_x0, l.data_y0);
  cairo_scale(cr, double(p.width) / columns, double(p.height) / rows);
  cairo_set_source_surface(cr, cells.get(), 0, 0);
  const bool enlarged = p.width >= columns && p.height >= rows;
  cairo_pattern_set_filter(cairo_get_source(cr), enlarged ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD);
  cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD);
  cairo_rectangle(cr, 0, 0, columns, rows);
  cairo_fill(cr);
  cairo_restore(cr);

  // The colour bar: +clip at the top, -clip at the bottom.
  const int bar_height = l.bar_y1 - l.bar_y0;
  for (int y = 0; y < bar_height; ++y) {
    unsigned char rgb[3];
    colour_at(1.0 - (y + 0.5) / bar_height, p.scale, rgb);
    cairo_set_source_rgb(cr, rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0);
    cairo_rectangle(cr, l.bar_x0, l.bar_y0 + y, bar_width, 1);
    cairo_fill(cr);
  }

  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_line_width(cr, 1);
  cairo_rectangle(cr, l.data_x0 - 0.5, l.data_y0 - 0.5, p.width + 1, p.height + 1);
  cairo_rectangle(cr, l.bar_x0 - 0.5, l.bar_y0 - 0.5, bar_width + 1, bar_height + 1);
  cairo_stroke(cr);
  cairo_set_font_face(cr, picture_face());
  cairo_set_font_size(cr, font_size);
  axis_ticks(cr, p.horizontal, columns, l, true);
  axis_ticks(cr, p.vertical, rows, l, false);
  for (double t : {1.0, 0.5, 0.0}) {
    const double y = l.bar_y0 + (1 - t) * bar_height;
    cairo_move_to(cr, l.bar_x1, y);
    cairo_line_to(cr, l.bar_x1 + 4, y);
    label(cr, number(range.lo + t * (range.hi - range.lo), 3), l.bar_x1 + 7, y, 0, 0.5);
  }
  cairo_stroke(cr);
  cairo_set_font_size(cr, bar_label_size);
  cairo_save(cr);
  cairo_translate(cr, l.width - 14, (l.bar_y0 + l.bar_y1) / 2.0);
  cairo_rotate(cr, -pi / 2);
  label(cr, p.quantity, 0, 0, 0.5, 0.5);
  cairo_restore(cr);
  if (p.scale == ColourScale::sequential) {
    const auto ordinal = [](double v) {
      const std::string n = number(v);
      return n + (n == "1" ? "st" : n == "2" ? "nd" : n == "3" ? "rd" : "th");
    };
    label(cr, "clipped at the " + ordinal(100 - p.percentile), l.bar_x0, l.bar_y1 + 10, 0, 0);
    label(cr, "and " + ordinal(p.percentile) + " percentiles", l.bar_x0, l.bar_y1 + 26, 0, 0);
  } else {
    label(cr, "clipped at the " + number(p.percentile) + "th", l.bar_x0, l.bar_y1 + 10, 0, 0);
    label(cr, "percentile of |value|", l.bar_x0, l.bar_y1 + 26, 0, 0);
  }
  cairo_set_font_size(cr, title_size);
  label(cr, p.title, (l.data_x0 + l.data_x1) / 2.0, top / 2.0, 0.5, 0.5);

  require(cairo_status(cr) == CAIRO_STATUS_SUCCESS, "picture ", path,
          ": cannot be drawn: ", cairo_status_to_string(cairo_status(cr)));
  cairo_surface_flush(surface.get());
  std::string png;
  const cairo_status_t encoded = cairo_surface_write_to_png_stream(surface.get(), append, &png);
  require(encoded == CAIRO_STATUS_SUCCESS, "picture ", path, ": cannot be encoded: ", cairo_status_to_string(encoded));
  write_bytes_atomically(path, png);
}

}  // namespace seis::io

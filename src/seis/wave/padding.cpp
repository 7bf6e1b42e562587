#include "seis/wave/padding.hpp"

#include <algorithm>

#include "seis/core/error.hpp"
#include "seis/core/host_parallel.hpp"

namespace seis::wave {

Grid padded_grid(const std::array<int, 3>& model_points, double h, int ndamp, Boundary boundary, Top top) {
  const int d = boundary == Boundary::pml ? ndamp : 0, above = top == Top::free ? 0 : d;
  Grid g;
  g.nx = model_points[0] + 2 * d, g.ny = model_points[1] + 2 * d, g.nz = model_points[2] + d + above;
  g.h = h;
  g.ndamp = ndamp;
  g.pad_low = {d, d, above};
  g.pad_high = {d, d, d};
  return g;
}

std::array<int, 3> model_points(const Grid& g) {
  return {g.nx - g.pad_low[0] - g.pad_high[0], g.ny - g.pad_low[1] - g.pad_high[1],
          g.nz - g.pad_low[2] - g.pad_high[2]};
}

Subdomain model_region(const Grid& g) {
  Subdomain r = whole_grid(g);
  const std::array<int, 3> n = model_points(g);
  for (int a = 0; a < 3; ++a) r.offset[a] = g.pad_low[std::size_t(a)], r.size[a] = n[std::size_t(a)];
  return r;
}

Subdomain model_part_of(const Grid& g, const Subdomain& part) {
  const std::array<int, 3> n = model_points(g);
  Subdomain m = whole_grid(n[0], n[1], n[2]);
  for (int a = 0; a < 3; ++a) {
    const int last = n[std::size_t(a)] - 1, pad = g.pad_low[std::size_t(a)];
    const int first = std::clamp(part.offset[a] - pad, 0, last);
    const int end = std::clamp(part.offset[a] + part.size[a] - 1 - pad, 0, last) + 1;
    m.offset[a] = first, m.size[a] = end - first;
  }
  return m;
}

std::vector<float> extend(const Grid& g, const Subdomain& part, const Subdomain& read, const std::vector<float>& values,
                          Fill fill) {
  require(values.size() == read.points(), "a model part holds ", values.size(), " values, its ", read.size[0], "x",
          read.size[1], "x", read.size[2], " points need ", read.points());
  const std::array<int, 3> n = model_points(g);
  // Per axis, the index in `read` each of the part's points takes its value from (-1: none, a zero).
  std::array<std::vector<long>, 3> from;
  for (int a = 0; a < 3; ++a)
    for (int i = 0; i < part.size[a]; ++i) {
      const int at = part.offset[a] + i - g.pad_low[std::size_t(a)];
      const int c = std::clamp(at, 0, n[std::size_t(a)] - 1);
      require(c >= read.offset[a] && c < read.offset[a] + read.size[a], "model point ", c, " along ", "xyz"[a],
              " lies outside the part read (", read.offset[a], "..", read.offset[a] + read.size[a] - 1, ")");
      from[std::size_t(a)].push_back(c != at && fill == Fill::zero ? -1 : c - read.offset[a]);
    }
  std::vector<float> out(part.points());
  const std::size_t row = from[0].size(), plane = row * from[1].size();
  host_parallel_for(
      from[2].size(),
      [&](std::size_t first, std::size_t end) {
        for (std::size_t z = first; z < end; ++z) {
          const long k = from[2][z];
          float* o = out.data() + z * plane;
          for (const long j : from[1])
            for (const long i : from[0])
              *o++ = i < 0 || j < 0 || k < 0 ? 0.0f : values[std::size_t((k * read.size[1] + j) * read.size[0] + i)];
        }
      },
      1);
  return out;
}

std::vector<float> crop(const Grid& g, const Subdomain& part, const std::vector<float>& values, Subdomain& cropped) {
  require(values.size() == part.points(), "a part holds ", values.size(), " values, its ", part.size[0], "x",
          part.size[1], "x", part.size[2], " points need ", part.points());
  const Subdomain model = model_region(g);
  const std::array<int, 3> n = model_points(g);
  cropped = whole_grid(n[0], n[1], n[2]);
  int first[3], end[3];
  for (int a = 0; a < 3; ++a) {
    first[a] = std::max(part.offset[a], model.offset[a]);
    end[a] = std::min(part.offset[a] + part.size[a], model.offset[a] + model.size[a]);
    cropped.offset[a] = std::max(first[a] - model.offset[a], 0);
    cropped.size[a] = std::max(end[a] - first[a], 0);
  }
  std::vector<float> out(cropped.points());
  std::size_t q = 0;
  for (int k = first[2]; k < end[2]; ++k)
    for (int j = first[1]; j < end[1]; ++j)
      for (int i = first[0]; i < end[0]; ++i, ++q)
        out[q] =
            values[(std::size_t(k - part.offset[2]) * std::size_t(part.size[1]) + std::size_t(j - part.offset[1])) *
                       std::size_t(part.size[0]) +
                   std::size_t(i - part.offset[0])];
  return out;
}

std::vector<float> crop(const Grid& g, const std::vector<float>& values) {
  Subdomain cropped;
  return crop(g, whole_grid(g), values, cropped);
}

}  // namespace seis::wave

#include <algorithm>
#include <cmath>
#include <sstream>

#include "seis/core/error.hpp"
#include "seis/io/picture.hpp"
#include "seis/io/volume.hpp"

namespace seis::io {

std::vector<std::string> write_sections(const std::string& stem, const std::vector<float>& xz,
                                        const std::vector<float>& xy, int nx, int ny, int nz, double h, int j, int k,
                                        const std::string& what, const std::string& quantity, ColourScale scale) {
  require(nx > 0 && ny > 0 && nz > 0, "sections of a ", nx, "x", ny, "x", nz, " volume: every size must be positive");
  require(j >= 0 && j < ny && k >= 0 && k < nz, "sections at y index ", j, " and depth index ", k, " of a ", nx, "x",
          ny, "x", nz, " volume");
  const int longest = std::max({nx, ny, nz});
  const auto pixels = [&](int cells) { return std::max(16, int(std::lround(600.0 * cells / longest))); };
  std::vector<std::string> paths;
  const auto section = [&](const std::vector<float>& cells, const char* suffix, const char* name, const char* across,
                           double at, const char* vertical, int rows) {
    Picture p;
    std::ostringstream title;
    title << what << ": " << name << " at " << across << " = " << at << " m";
    p.title = title.str();
    p.horizontal = {"x (m)", 0.0, (nx - 1) * h};
    p.vertical = {vertical, 0.0, (rows - 1) * h};
    p.quantity = quantity;
    p.scale = scale;
    p.width = pixels(nx);
    p.height = pixels(rows);
    paths.push_back(stem + suffix);
    write_picture(paths.back(), cells, rows, nx, p);
  };
  section(xz, "-xz.png", "x-z section", "y", j * h, "depth z (m)", nz);
  section(xy, "-xy.png", "x-y section", "depth z", k * h, "y (m)", ny);
  return paths;
}

std::vector<std::string> write_volume_sections(const std::string& stem, const std::vector<float>& values, int nx,
                                               int ny, int nz, double h, int j, int k, const std::string& what,
                                               const std::string& quantity, ColourScale scale) {
  const std::size_t row = std::size_t(nx), plane = row * std::size_t(ny);
  require(values.size() == plane * std::size_t(nz), "a volume of ", values.size(), " values, ", nx, "x", ny, "x", nz,
          " needs ", plane * std::size_t(nz));
  require(j >= 0 && j < ny && k >= 0 && k < nz, "sections at y index ", j, " and depth index ", k, " of a ", nx, "x",
          ny, "x", nz, " volume");
  std::vector<float> xz(row * std::size_t(nz)), xy(plane);
  for (int z = 0; z < nz; ++z)
    std::copy_n(values.begin() + std::ptrdiff_t(std::size_t(z) * plane + std::size_t(j) * row), nx,
                xz.begin() + std::ptrdiff_t(std::size_t(z) * row));
  std::copy_n(values.begin() + std::ptrdiff_t(std::size_t(k) * plane), plane, xy.begin());
  return write_sections(stem, xz, xy, nx, ny, nz, h, j, k, what, quantity, scale);
}

}  // namespace seis::io

#include "seis/wave/subdomain.hpp"

#include "seis/core/error.hpp"
#include "seis/wave/setup.hpp"

namespace seis::wave {

const char* to_string(Face f) {
  static const char* names[face_count] = {"y-", "y+", "z-", "z+"};
  return f >= 0 && f < face_count ? names[f] : "?";
}

Subdomain whole_grid(const Setup& s) {
  Subdomain d;
  d.global[0] = d.size[0] = s.nx;
  d.global[1] = d.size[1] = s.ny;
  d.global[2] = d.size[2] = s.nz;
  return d;
}

namespace {
// Block distribution of n points over p parts: part c's first point and size.
void block(int n, int p, int c, int& first, int& size) {
  const int base = n / p, extra = n % p;
  size = base + (c < extra ? 1 : 0);
  first = c * base + (c < extra ? c : extra);
}
}  // namespace

Subdomain split_grid(const Setup& s, int py, int pz, int cy, int cz) {
  require(py >= 1 && pz >= 1, "decomposition ", py, "x", pz, ": both counts must be >= 1");
  require(cy >= 0 && cy < py && cz >= 0 && cz < pz, "part (", cy, ", ", cz, ") is outside the ", py, "x", pz,
          " decomposition");
  Subdomain d = whole_grid(s);
  const char* axis[2] = {"y", "z"};
  const int parts[2] = {py, pz}, coord[2] = {cy, cz};
  for (int a = 0; a < 2; ++a) {
    const int n = d.global[a + 1], p = parts[a];
    require(p == 1 || n / p >= s.radius, "decomposition ", py, "x", pz, ": ", n, " points along ", axis[a], " over ", p,
            " parts leave ", n / p, " per part, fewer than the stencil radius R = ", s.radius,
            " that a halo exchange needs (at most ", n / std::max(s.radius, 1), " parts along ", axis[a], ")");
    block(n, p, coord[a], d.offset[a + 1], d.size[a + 1]);
    d.neighbour[2 * a] = coord[a] > 0;
    d.neighbour[2 * a + 1] = coord[a] < p - 1;
  }
  return d;
}

void parse_decomposition(const std::string& text, int& py, int& pz) {
  std::size_t used = 0;
  const auto x = text.find('x');
  try {
    require(x != std::string::npos, "");
    py = std::stoi(text.substr(0, x), &used);
    require(used == x, "");
    pz = std::stoi(text.substr(x + 1), &used);
    require(used == text.size() - x - 1, "");
  } catch (const std::exception&) {
    fail("decomposition '", text, "' must be PYxPZ (parts along y and z, e.g. 2x4)");
  }
  require(py >= 1 && pz >= 1, "decomposition '", text, "': both counts must be >= 1");
}

}  // namespace seis::wave

#include "seis/wave/subdomain.hpp"

#include <algorithm>
#include <vector>

#include "seis/core/error.hpp"
#include "seis/wave/setup.hpp"

namespace seis::wave {

const char* to_string(Face f) {
  static const char* names[face_count] = {"x-", "x+", "y-", "y+", "z-", "z+"};
  return f >= 0 && f < face_count ? names[f] : "?";
}

std::string Decomposition::text() const {
  return std::to_string(parts[0]) + "x" + std::to_string(parts[1]) + "x" + std::to_string(parts[2]);
}

Subdomain whole_grid(const Grid& g) { return whole_grid(g.nx, g.ny, g.nz); }

Subdomain whole_grid(int nx, int ny, int nz) {
  Subdomain d;
  d.global[0] = d.size[0] = nx;
  d.global[1] = d.size[1] = ny;
  d.global[2] = d.size[2] = nz;
  return d;
}

namespace {
// Block distribution of n items over p parts: part c's first item and count.
void block(int n, int p, int c, int& first, int& size) {
  const int base = n / p, extra = n % p;
  size = base + (c < extra ? 1 : 0);
  first = c * base + (c < extra ? c : extra);
}
}  // namespace

Subdomain split_grid(const Setup& s, const Decomposition& d, const std::array<int, 3>& coord) {
  const char* axis[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    require(d.parts[a] >= 1, "decomposition ", d.text(), ": every count must be >= 1");
    require(coord[a] >= 0 && coord[a] < d.parts[a], "part (", coord[0], ", ", coord[1], ", ", coord[2],
            ") is outside the ", d.text(), " decomposition");
  }
  Subdomain part = whole_grid(s);
  // The stencil's radius R, or 2R - 1 where the density varies.
  const int depth = halo_depth(s);
  const std::string deeper = depth == s.radius ? " (the stencil radius R)"
                                               : " (2R - 1, R = " + std::to_string(s.radius) + ": the density varies)";
  for (int a = 0; a < 3; ++a) {
    const int n = part.global[a], p = d.parts[a], c = coord[a];
    if (a == 0) {
      const int granules = (n + x_split_granule - 1) / x_split_granule;
      require(p <= granules, "decomposition ", d.text(), ": ", n, " points along x make ", granules, " granules of ",
              x_split_granule, " points (x splits fall between them), fewer than ", p, " parts (at most ", granules,
              " parts along x)");
      const auto range = [&](int part_c, int& first, int& size) {
        int granule = 0, count = 0;
        block(granules, p, part_c, granule, count);
        first = granule * x_split_granule;
        size = std::min(n, (granule + count) * x_split_granule) - first;
      };
      int last_first = 0, last_size = 0;
      range(p - 1, last_first, last_size);
      require(p == 1 || last_size >= depth, "decomposition ", d.text(), ": the last x part holds ", last_size,
              " points (nx = ", n, "), fewer than the ", depth, " planes", deeper,
              " that a halo exchange needs (x splits fall on multiples of ", x_split_granule, " points)");
      range(c, part.offset[0], part.size[0]);
    } else {
      require(p == 1 || n / p >= depth, "decomposition ", d.text(), ": ", n, " points along ", axis[a], " over ", p,
              " parts leave ", n / p, " per part, fewer than the ", depth, " planes", deeper,
              " that a halo exchange needs (at most ", n / std::max(depth, 1), " parts along ", axis[a], ")");
      block(n, p, c, part.offset[a], part.size[a]);
    }
    part.neighbour[2 * a] = c > 0;
    part.neighbour[2 * a + 1] = c < p - 1;
  }
  return part;
}

Decomposition default_decomposition(int ranks, int nx, int ny, int nz, int radius) {
  Decomposition best;
  best.parts[2] = ranks;
  double best_surface = -1;
  bool best_fits = false;
  for (int pz = ranks; pz >= 1; --pz) {
    if (ranks % pz != 0) continue;
    const int py = ranks / pz;
    const bool fits = ny / py >= radius && nz / pz >= radius;
    const double surface = double(py - 1) * nx * nz + double(pz - 1) * nx * ny;
    if (best_surface < 0 || (fits && !best_fits) || (fits == best_fits && surface < best_surface)) {
      best.parts[1] = py, best.parts[2] = pz;
      best_surface = surface, best_fits = fits;
    }
  }
  return best;
}

Decomposition parse_decomposition(const std::string& text) {
  std::vector<int> counts;
  try {
    std::size_t start = 0;
    while (true) {
      const std::size_t x = text.find('x', start);
      const std::string item = text.substr(start, x == std::string::npos ? std::string::npos : x - start);
      std::size_t used = 0;
      counts.push_back(std::stoi(item, &used));
      require(used == item.size() && !item.empty() && item[0] != '+' && item[0] != ' ', "");
      if (x == std::string::npos) break;
      start = x + 1;
    }
    require(counts.size() == 2 || counts.size() == 3, "");
  } catch (const std::exception&) {
    fail("decomposition '", text, "' must be PXxPYxPZ (parts along x, y and z, e.g. 2x2x1) or PYxPZ (x whole)");
  }
  Decomposition d;
  for (std::size_t a = 0; a < counts.size(); ++a) {
    require(counts[a] >= 1, "decomposition '", text, "': every count must be >= 1");
    d.parts[a + 3 - counts.size()] = counts[a];
  }
  return d;
}

void HaloExchange::start(const std::array<float*, face_count>&, const std::array<float*, face_count>&,
                         const std::array<std::size_t, face_count>&) {
  fail("halo transport '", transport(), "' moves no messages");
}
void HaloExchange::finish() { fail("halo transport '", transport(), "' moves no messages"); }
void HaloExchange::connect(const std::array<std::size_t, face_count>&) {
  fail("halo transport '", transport(), "' maps no neighbour memory");
}
float* HaloExchange::inbox(int, int) { fail("halo transport '", transport(), "' maps no neighbour memory"); }
float* HaloExchange::outbox(int, int) { fail("halo transport '", transport(), "' maps no neighbour memory"); }
void HaloExchange::posted(int, int, void*) { fail("halo transport '", transport(), "' maps no neighbour memory"); }
void HaloExchange::arrived(int, int, void*) { fail("halo transport '", transport(), "' maps no neighbour memory"); }

}  // namespace seis::wave

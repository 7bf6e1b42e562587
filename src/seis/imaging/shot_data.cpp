#include "seis/imaging/shot_data.hpp"

#include <algorithm>
#include <cmath>

#include "seis/core/error.hpp"
#include "seis/core/host_parallel.hpp"

namespace seis::imaging {

void mute_direct_wave(std::vector<float>& traces, const std::vector<wave::Point>& receivers, const wave::Point& source,
                      int steps, double dt, double velocity, double f0) {
  require(velocity > 0 && std::isfinite(velocity), "mute velocity ", velocity, " m/s must be > 0");
  require(traces.size() == receivers.size() * std::size_t(steps), "traces hold ", traces.size(), " samples, ",
          receivers.size(), " receivers x ", steps, " need ", receivers.size() * std::size_t(steps));
  const double taper = 0.5 / f0;
  for (std::size_t r = 0; r < receivers.size(); ++r) {
    const wave::Point& p = receivers[r];
    const double distance = std::hypot(p.x - source.x, p.y - source.y, p.z - source.z);
    const double end = distance / velocity + 2.0 / f0;
    for (int n = 0; n < steps; ++n) {
      const double t = n * dt;
      const double gain = t < end ? 0.0 : t < end + taper ? 0.5 - 0.5 * std::cos(M_PI * (t - end) / taper) : 1.0;
      traces[r * std::size_t(steps) + std::size_t(n)] *= float(gain);
    }
  }
}

std::vector<float> backward_sources(const std::vector<float>& traces, std::size_t receivers, int steps, double dt) {
  require(traces.size() == receivers * std::size_t(steps), "traces hold ", traces.size(), " samples, ", receivers,
          " receivers x ", steps, " need ", receivers * std::size_t(steps));
  std::vector<float> out(traces.size());
  const auto at = [&](std::size_t r, int n) {
    return n < 0 || n >= steps ? 0.0 : double(traces[r * std::size_t(steps) + std::size_t(n)]);
  };
  for (std::size_t r = 0; r < receivers; ++r)
    for (int n = 0; n < steps; ++n)
      out[r * std::size_t(steps) + std::size_t(steps - 1 - n)] = float((at(r, n - 1) - at(r, n + 1)) / (2 * dt));
  return out;
}

std::vector<float> adjoint_sources(const std::vector<float>& traces, std::size_t receivers, int steps, double h) {
  require(traces.size() == receivers * std::size_t(steps), "traces hold ", traces.size(), " samples, ", receivers,
          " receivers x ", steps, " need ", receivers * std::size_t(steps));
  std::vector<float> out(traces.size());
  const double volume = h * h * h;
  for (std::size_t r = 0; r < receivers; ++r)
    for (int n = 0; n < steps; ++n)
      out[r * std::size_t(steps) + std::size_t(steps - 1 - n)] =
          float(volume * traces[r * std::size_t(steps) + std::size_t(n)]);
  return out;
}

std::vector<float> normalise_by_illumination(const std::vector<float>& image, const std::vector<float>& illumination,
                                             double floor) {
  require(image.size() == illumination.size(), "image of ", image.size(), " points, illumination of ",
          illumination.size());
  const double sum = host_parallel_reduce(
      illumination.size(), 0.0,
      [&](std::size_t begin, std::size_t end) {
        double s = 0;
        for (std::size_t p = begin; p < end; ++p) s += illumination[p];
        return s;
      },
      [](double a, double b) { return a + b; });
  const double added = illumination.empty() ? 0.0 : floor * sum / double(illumination.size());
  std::vector<float> out(image.size());
  host_parallel_for(image.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t p = begin; p < end; ++p) out[p] = added > 0 ? float(image[p] / (illumination[p] + added)) : 0.0f;
  });
  return out;
}

const char* to_string(ImageFilter f) { return f == ImageFilter::laplacian ? "laplacian" : "none"; }

ImageFilter parse_image_filter(const std::string& text) {
  for (ImageFilter f : {ImageFilter::laplacian, ImageFilter::none})
    if (text == to_string(f)) return f;
  fail("unknown image filter '", text, "' (laplacian, none)");
}

std::vector<float> laplacian_filter(const std::vector<float>& image, int nx, int ny, int nz) {
  const std::size_t sx = 1, sy = std::size_t(nx), sz = std::size_t(nx) * ny;
  require(image.size() == sz * std::size_t(nz), "image of ", image.size(), " points, the grid has ",
          sz * std::size_t(nz));
  std::vector<float> out(image.size(), 0.0f);
  host_parallel_for(
      std::size_t(nz),
      [&](std::size_t k0, std::size_t k1) {
        for (std::size_t k = std::max<std::size_t>(k0, 1); k < std::min<std::size_t>(k1, std::size_t(nz) - 1); ++k)
          for (std::size_t j = 1; j + 1 < std::size_t(ny); ++j)
            for (std::size_t i = 1; i + 1 < std::size_t(nx); ++i) {
              const std::size_t c = k * sz + j * sy + i;
              const double sum = double(image[c - sx]) + image[c + sx] + image[c - sy] + image[c + sy] + image[c - sz] +
                                 image[c + sz] - 6.0 * image[c];
              out[c] = float(-sum);
            }
      },
      1);
  return out;
}

void mute_shallow(std::vector<float>& image, int nx, int ny, int nz, double h, double depth, double taper) {
  const std::size_t plane = std::size_t(nx) * std::size_t(ny);
  require(image.size() == plane * std::size_t(nz), "image of ", image.size(), " points, the grid has ",
          plane * std::size_t(nz));
  for (int k = 0; k < nz; ++k) {
    const double z = k * h;
    const double gain = z < depth ? 0.0 : z < depth + taper ? 0.5 - 0.5 * std::cos(M_PI * (z - depth) / taper) : 1.0;
    if (gain < 1.0)
      for (std::size_t p = std::size_t(k) * plane; p < std::size_t(k + 1) * plane; ++p) image[p] *= float(gain);
  }
}

namespace {
// One moving average of 2 r + 1 points along the axis of `stride` (`count` points), the ends averaging what is there.
void average_along(std::vector<double>& v, std::size_t lines_outer, std::size_t outer_stride, std::size_t lines_inner,
                   std::size_t stride, std::size_t count, int r) {
  host_parallel_for(
      lines_outer,
      [&](std::size_t a0, std::size_t a1) {
        std::vector<double> line(count), prefix(count + 1);
        for (std::size_t a = a0; a < a1; ++a)
          for (std::size_t b = 0; b < lines_inner; ++b) {
            const std::size_t base = a * outer_stride + b * (stride == 1 ? count : 1);
            prefix[0] = 0;
            for (std::size_t n = 0; n < count; ++n) prefix[n + 1] = prefix[n] + v[base + n * stride];
            for (std::size_t n = 0; n < count; ++n) {
              const std::size_t lo = n >= std::size_t(r) ? n - std::size_t(r) : 0, hi = std::min(count, n + r + 1);
              line[n] = (prefix[hi] - prefix[lo]) / double(hi - lo);
            }
            for (std::size_t n = 0; n < count; ++n) v[base + n * stride] = line[n];
          }
      },
      1);
}
}  // namespace

std::vector<float> smoothed_model(const std::vector<float>& velocity, int nx, int ny, int nz, double h, double length) {
  require(length >= 0 && std::isfinite(length), "smoothing length ", length, " m must be >= 0");
  const std::size_t sx = std::size_t(nx), sxy = sx * std::size_t(ny);
  require(velocity.size() == sxy * std::size_t(nz), "model of ", velocity.size(), " points, the grid has ",
          sxy * std::size_t(nz));
  const int r = int(std::lround(length / (2.0 * std::sqrt(3.0) * h)));
  if (r == 0) return velocity;
  std::vector<double> slowness(velocity.size());
  for (std::size_t p = 0; p < velocity.size(); ++p) slowness[p] = 1.0 / velocity[p];
  for (int pass = 0; pass < 3; ++pass) {
    average_along(slowness, std::size_t(nz) * ny, sx, 1, 1, sx, r);             // x: each row
    average_along(slowness, std::size_t(nz), sxy, sx, sx, std::size_t(ny), r);  // y: each plane's columns
    average_along(slowness, std::size_t(ny), sx, sx, sxy, std::size_t(nz), r);  // z: each vertical line
  }
  std::vector<float> out(velocity.size());
  for (std::size_t p = 0; p < out.size(); ++p) out[p] = float(1.0 / slowness[p]);
  return out;
}

}  // namespace seis::imaging

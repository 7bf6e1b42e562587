// PNG pictures (stb_image_write), snapshots (raw float32 + JSON), checkpoints and raw velocity models.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include "seis/core/error.hpp"
#include "seis/io/atomic_file.hpp"
#include "seis/io/outputs.hpp"

namespace seis::io {

void write_png(const std::string& path, const std::vector<float>& values, int rows, int columns, double percentile,
               int width, int height) {
  require(values.size() == std::size_t(rows) * std::size_t(columns), "PNG ", path, ": ", values.size(), " values for ",
          rows, " x ", columns);
  require(width >= 1 && height >= 1, "PNG ", path, ": pixel block ", width, " x ", height, " must be >= 1");
  std::vector<float> magnitude(values.size());
  std::transform(values.begin(), values.end(), magnitude.begin(), [](float v) { return std::abs(v); });
  const auto at = static_cast<std::size_t>(std::clamp(percentile, 0.0, 100.0) / 100.0 * double(magnitude.size() - 1));
  double clip = 1.0;
  if (!magnitude.empty()) {
    std::nth_element(magnitude.begin(), magnitude.begin() + std::ptrdiff_t(at), magnitude.end());
    if (magnitude[at] > 0) clip = magnitude[at];
  }
  const int pixel_columns = columns * width, pixel_rows = rows * height;
  std::vector<unsigned char> pixels(std::size_t(pixel_rows) * std::size_t(pixel_columns) * 3);
  for (int y = 0; y < pixel_rows; ++y)
    for (int x = 0; x < pixel_columns; ++x) {
      const float value = values[std::size_t(y / height) * std::size_t(columns) + std::size_t(x / width)];
      const double t = std::clamp(value / clip, -1.0, 1.0);  // -1 blue, 0 white, +1 red
      const auto fade = static_cast<unsigned char>(std::lround(255.0 * (1.0 - std::abs(t))));
      unsigned char* p = &pixels[(std::size_t(y) * std::size_t(pixel_columns) + std::size_t(x)) * 3];
      p[0] = t < 0 ? fade : 255;
      p[1] = fade;
      p[2] = t > 0 ? fade : 255;
    }
  // Encoded in memory, then written with every write checked (stb's own file writer ignores a full disk).
  int length = 0;
  unsigned char* png = stbi_write_png_to_mem(pixels.data(), pixel_columns * 3, pixel_columns, pixel_rows, 3, &length);
  require(png != nullptr, "PNG ", path, ": cannot be encoded");
  const std::string bytes(reinterpret_cast<const char*>(png), std::size_t(length));
  STBIW_FREE(png);
  write_bytes_atomically(path, bytes);
}

void write_snapshot(const std::string& path, const std::vector<float>& values, const wave::Subdomain& part, double h,
                    int step, double time) {
  const int nx = part.size[0], ny = part.size[1], nz = part.size[2];
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(values.data()), std::streamsize(values.size() * sizeof(float)));
    require(out.good(), "snapshot ", path, ": cannot be written");
  }
  const nlohmann::json meta = {{"file", std::filesystem::path(path).filename().string()},
                               {"dtype", "float32"},
                               {"byte_order", "little"},
                               {"order", "x fastest, then y, then z (depth)"},
                               {"shape_zyx", {nz, ny, nx}},
                               {"offset_zyx", {part.offset[2], part.offset[1], part.offset[0]}},
                               {"grid_shape_zyx", {part.global[2], part.global[1], part.global[0]}},
                               {"spacing_m", h},
                               {"step", step},
                               {"time_s", time},
                               {"quantity", "pressure wavefield u (source units / m)"}};
  std::ofstream(path + ".json") << meta.dump(2) << "\n";
}

namespace {

constexpr char magic[8] = {'S', 'E', 'I', 'S', 'C', 'K', 'P', '1'};

struct Header {
  char magic[8];
  std::int64_t step, u, u_prev, phi, traces, fingerprint;
};

// Reads a header from IN into H: whether it starts a seis-wave checkpoint.
bool read_checkpoint_header(std::istream& in, Header& h) {
  in.read(reinterpret_cast<char*>(&h), sizeof h);
  return in.good() && std::memcmp(h.magic, magic, sizeof magic) == 0;
}

// Opens the checkpoint at PATH and reads its header, refusing a file that is not one or is another run's.
Header read_header(std::ifstream& in, const std::string& path, const std::string& fingerprint) {
  require(in.good(), "checkpoint ", path, ": cannot be opened");
  Header h{};
  require(read_checkpoint_header(in, h), "checkpoint ", path, ": not a seis-wave checkpoint");
  require(h.fingerprint >= 0 && h.fingerprint < (1 << 20), "checkpoint ", path, ": corrupt header");
  std::string stored(std::size_t(h.fingerprint), '\0');
  in.read(stored.data(), std::streamsize(stored.size()));
  require(stored == fingerprint, "checkpoint ", path, " belongs to another run:\n  its parameters: ", stored,
          "\n  this run's:     ", fingerprint);
  return h;
}

// Whether PATH holds a checkpoint of the length its header gives: a write stopped before its fsync leaves a short
// .tmp (empty when the kill came before the first buffer flush).
bool whole_checkpoint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  Header h{};
  if (!read_checkpoint_header(in, h)) return false;
  const std::int64_t floats = h.u + h.u_prev + h.phi + h.traces;
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  return !error && h.fingerprint >= 0 && floats >= 0 &&
         size == sizeof h + std::uintmax_t(h.fingerprint) + std::uintmax_t(floats) * sizeof(float);
}

std::string temporary_checkpoint(const std::string& path) { return path + ".tmp"; }

}  // namespace

void write_checkpoint(const std::string& path, const wave::State& s, const std::string& fingerprint) {
  const std::string temporary = temporary_checkpoint(path);
  {
    std::FILE* file = std::fopen(temporary.c_str(), "wb");
    require(file != nullptr, "checkpoint ", temporary, ": cannot be created");
    Header h{};
    std::memcpy(h.magic, magic, sizeof magic);
    h.step = s.step;
    h.u = std::int64_t(s.u.size());
    h.u_prev = std::int64_t(s.u_prev.size());
    h.phi = std::int64_t(s.phi.size());
    h.traces = std::int64_t(s.traces.size());
    h.fingerprint = std::int64_t(fingerprint.size());
    bool ok = std::fwrite(&h, sizeof h, 1, file) == 1 &&
              std::fwrite(fingerprint.data(), 1, fingerprint.size(), file) == fingerprint.size();
    // An empty array (phi without a PML) has no data pointer, and fwrite's must not be null.
    for (const auto* array : {&s.u, &s.u_prev, &s.phi, &s.traces})
      ok = ok && (array->empty() || std::fwrite(array->data(), sizeof(float), array->size(), file) == array->size());
    ok = std::fflush(file) == 0 && ok;
    // On disk before the rename: after a machine crash the name must not point at blocks never written.
    ok = ::fsync(::fileno(file)) == 0 && ok;
    ok = std::fclose(file) == 0 && ok;
    require(ok, "checkpoint ", temporary, ": write failed (disk full?)");
  }
  if (std::filesystem::exists(path)) std::filesystem::rename(path, previous_checkpoint(path));
  std::filesystem::rename(temporary, path);
}

std::string previous_checkpoint(const std::string& path) { return path + ".previous"; }

void complete_checkpoint(const std::string& path) {
  namespace fs = std::filesystem;
  const std::string temporary = temporary_checkpoint(path);
  if (!fs::exists(path) && fs::exists(previous_checkpoint(path)) && whole_checkpoint(temporary))
    fs::rename(temporary, path);
}

int checkpoint_step(const std::string& path, const std::string& fingerprint) {
  if (!std::filesystem::exists(path)) return -1;
  std::ifstream in(path, std::ios::binary);
  return int(read_header(in, path, fingerprint).step);
}

wave::State read_checkpoint(const std::string& path, const std::string& fingerprint) {
  std::ifstream in(path, std::ios::binary);
  const Header h = read_header(in, path, fingerprint);
  wave::State s;
  s.step = int(h.step);
  auto read = [&](std::vector<float>& array, std::int64_t count) {
    require(count >= 0, "checkpoint ", path, ": corrupt header");
    array.resize(std::size_t(count));
    in.read(reinterpret_cast<char*>(array.data()), std::streamsize(array.size() * sizeof(float)));
    require(in.good(), "checkpoint ", path, ": truncated");
  };
  read(s.u, h.u);
  read(s.u_prev, h.u_prev);
  read(s.phi, h.phi);
  read(s.traces, h.traces);
  return s;
}

std::vector<float> read_velocity_raw(const std::string& path, int nx, int ny, int nz) {
  return read_velocity_raw(path, wave::whole_grid(nx, ny, nz));
}

std::vector<float> read_velocity_raw(const std::string& path, const wave::Subdomain& part, std::size_t* bytes_read) {
  const int nx = part.global[0], ny = part.global[1], nz = part.global[2];
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  require(!error, "velocity model ", path, ": cannot be read (", error.message(), ")");
  const std::size_t needed = std::size_t(nx) * ny * nz * sizeof(float);
  require(size == needed, "velocity model ", path, ": ", size, " bytes, the ", nx, "x", ny, "x", nz, " grid needs ",
          needed, " (float32, x fastest)");
  // The part's rows, each read from its offset in the file.
  const int* o = part.offset;
  const int* n = part.size;
  std::vector<float> velocity(part.points());
  std::ifstream in(path, std::ios::binary);
  for (int k = 0; k < n[2]; ++k)
    for (int j = 0; j < n[1]; ++j) {
      const std::size_t row = (std::size_t(k + o[2]) * ny + std::size_t(j + o[1])) * nx + std::size_t(o[0]);
      in.seekg(std::streamoff(row * sizeof(float)));
      in.read(reinterpret_cast<char*>(velocity.data() + (std::size_t(k) * n[1] + std::size_t(j)) * n[0]),
              std::streamsize(std::size_t(n[0]) * sizeof(float)));
      require(in.good(), "velocity model ", path, ": read failed at byte ", row * sizeof(float));
    }
  if (bytes_read != nullptr) *bytes_read = velocity.size() * sizeof(float);
  return velocity;
}

}  // namespace seis::io

#include "seis/io/stack_file.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "seis/core/error.hpp"
#include "seis/io/atomic_file.hpp"
#include "seis/io/input_file.hpp"

namespace seis::io {

namespace {

constexpr char magic[8] = {'S', 'E', 'I', 'S', 'S', 'T', 'K', '3'};
constexpr char older[2][8] = {{'S', 'E', 'I', 'S', 'S', 'T', 'K', '1'}, {'S', 'E', 'I', 'S', 'S', 'T', 'K', '2'}};

// The stack's volumes in the file's order (the density's image where it has one).
template <class S>
auto volumes(S& s) {
  std::vector<decltype(&s.image)> out{&s.image, &s.illumination};
  if (!s.density_image.empty()) out.push_back(&s.density_image);
  return out;
}

}  // namespace

void write_stack(const std::string& path, const Stack& s) {
  const std::size_t points = std::size_t(s.nx) * std::size_t(s.ny) * std::size_t(s.nz);
  for (const auto* v : volumes(s))
    require(v->size() == points, "stack ", path, ": a volume of ", v->size(), " values (image ", s.image.size(),
            ", illumination ", s.illumination.size(), ", density image ", s.density_image.size(), "), the grid has ",
            points);
  const std::vector<std::int32_t> shots(s.shots.begin(), s.shots.end());
  std::uint32_t crc = crc32_add(0, shots.data(), shots.size() * sizeof(std::int32_t));
  crc = crc32_add(crc, s.fingerprint.data(), s.fingerprint.size());
  for (const auto* v : volumes(s)) crc = crc32_add(crc, v->data(), points * sizeof(float));
  const std::int32_t header[6] = {s.nx,
                                  s.ny,
                                  s.nz,
                                  std::int32_t(s.shots.size()),
                                  std::int32_t(s.fingerprint.size()),
                                  std::int32_t(volumes(s).size())};
  // Written as it is held (a stack of 512^3 is 1 GiB: no copy of it first).
  std::vector<Bytes> pieces{{magic, sizeof magic},
                            {header, sizeof header},
                            {&crc, sizeof crc},
                            {shots.data(), shots.size() * sizeof(std::int32_t)},
                            {s.fingerprint.data(), s.fingerprint.size()}};
  for (const auto* v : volumes(s)) pieces.push_back({v->data(), points * sizeof(float)});
  write_pieces_atomically(path, pieces);
}

Stack read_stack(const std::string& path, bool keep_data) {
  require_regular_file(path, "stack");
  std::ifstream in(path, std::ios::binary);
  require(in.good(), "stack ", path, " cannot be read");
  char tag[sizeof magic] = {};
  std::int32_t header[6] = {};
  std::uint32_t crc = 0;
  in.read(tag, sizeof tag);
  for (const char* format : older)
    require(std::memcmp(tag, format, sizeof magic) != 0, "stack ", path, " was written by an older seis-wave (",
            std::string(format, sizeof magic), "): migrate those shots again (remove it, or --overwrite)");
  in.read(reinterpret_cast<char*>(header), sizeof header);
  in.read(reinterpret_cast<char*>(&crc), sizeof crc);
  require(in.good() && std::memcmp(tag, magic, sizeof magic) == 0, "stack ", path, " is not a seis-wave stack");
  Stack s;
  s.nx = header[0], s.ny = header[1], s.nz = header[2];
  const int count = header[5];
  require(s.nx >= 1 && s.ny >= 1 && s.nz >= 1 && header[3] >= 0 && header[4] >= 0 && (count == 2 || count == 3),
          "stack ", path, ": grid ", s.nx, "x", s.ny, "x", s.nz, ", ", header[3], " shots, ", header[4],
          " bytes of parameters and ", count, " volumes are not a stack's");
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  const std::size_t points = std::size_t(s.nx) * std::size_t(s.ny) * std::size_t(s.nz);
  const std::uintmax_t expected = sizeof magic + sizeof header + sizeof crc + std::uintmax_t(header[3]) * 4 +
                                  std::uintmax_t(header[4]) + std::uintmax_t(count) * points * sizeof(float);
  require(!error && size == expected, "stack ", path, " holds ", size, " bytes, its header says ", expected);
  std::vector<std::int32_t> shots(static_cast<std::size_t>(header[3]));
  in.read(reinterpret_cast<char*>(shots.data()), std::streamsize(shots.size() * sizeof(std::int32_t)));
  s.shots.assign(shots.begin(), shots.end());
  s.fingerprint.resize(std::size_t(header[4]));
  in.read(s.fingerprint.data(), std::streamsize(s.fingerprint.size()));
  std::uint32_t sum = crc32_add(0, shots.data(), shots.size() * sizeof(std::int32_t));
  sum = crc32_add(sum, s.fingerprint.data(), s.fingerprint.size());
  if (keep_data) {
    if (count == 3) s.density_image.resize(points);
    for (auto* v : volumes(s)) {
      v->resize(points);
      in.read(reinterpret_cast<char*>(v->data()), std::streamsize(points * sizeof(float)));
      sum = crc32_add(sum, v->data(), points * sizeof(float));
    }
  } else {
    std::vector<char> buffer(std::size_t(1) << 22);
    for (std::uintmax_t left = std::uintmax_t(count) * points * sizeof(float); left > 0 && in.good();) {
      const std::size_t n = std::size_t(std::min<std::uintmax_t>(left, buffer.size()));
      in.read(buffer.data(), std::streamsize(n));
      sum = crc32_add(sum, buffer.data(), n);
      left -= n;
    }
  }
  require(in.good(), "stack ", path, " cannot be read to its end");
  require(sum == crc, "stack ", path, " fails its CRC-32 (damaged since it was written): remove it to migrate its ",
          s.shots.size(), " shot(s) again");
  return s;
}

std::vector<std::string> stack_files(const std::string& directory) {
  std::vector<std::string> out;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("stack-", 0) == 0 && entry.path().extension() == ".bin") out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace seis::io

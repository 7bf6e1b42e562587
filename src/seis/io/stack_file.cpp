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

constexpr char magic[8] = {'S', 'E', 'I', 'S', 'S', 'T', 'K', '2'};
constexpr char first_magic[8] = {'S', 'E', 'I', 'S', 'S', 'T', 'K', '1'};

}  // namespace

void write_stack(const std::string& path, const Stack& s) {
  const std::size_t points = std::size_t(s.nx) * std::size_t(s.ny) * std::size_t(s.nz);
  require(s.image.size() == points && s.illumination.size() == points, "stack ", path, ": image of ", s.image.size(),
          " and illumination of ", s.illumination.size(), " values, the grid has ", points);
  const std::vector<std::int32_t> shots(s.shots.begin(), s.shots.end());
  std::uint32_t crc = crc32_add(0, shots.data(), shots.size() * sizeof(std::int32_t));
  crc = crc32_add(crc, s.fingerprint.data(), s.fingerprint.size());
  crc = crc32_add(crc, s.image.data(), points * sizeof(float));
  crc = crc32_add(crc, s.illumination.data(), points * sizeof(float));
  const std::int32_t header[5] = {s.nx, s.ny, s.nz, std::int32_t(s.shots.size()), std::int32_t(s.fingerprint.size())};
  // Written as it is held (a stack of 512^3 is 1 GiB: no copy of it first).
  write_pieces_atomically(path, {{magic, sizeof magic},
                                 {header, sizeof header},
                                 {&crc, sizeof crc},
                                 {shots.data(), shots.size() * sizeof(std::int32_t)},
                                 {s.fingerprint.data(), s.fingerprint.size()},
                                 {s.image.data(), points * sizeof(float)},
                                 {s.illumination.data(), points * sizeof(float)}});
}

Stack read_stack(const std::string& path, bool keep_data) {
  require_regular_file(path, "stack");
  std::ifstream in(path, std::ios::binary);
  require(in.good(), "stack ", path, " cannot be read");
  char tag[sizeof magic] = {};
  std::int32_t header[5] = {};
  std::uint32_t crc = 0;
  in.read(tag, sizeof tag);
  require(std::memcmp(tag, first_magic, sizeof magic) != 0, "stack ", path,
          " was written by an older seis-wave without a checksum or parameters: migrate those shots again (remove it, "
          "or --overwrite)");
  in.read(reinterpret_cast<char*>(header), sizeof header);
  in.read(reinterpret_cast<char*>(&crc), sizeof crc);
  require(in.good() && std::memcmp(tag, magic, sizeof magic) == 0, "stack ", path, " is not a seis-wave stack");
  Stack s;
  s.nx = header[0], s.ny = header[1], s.nz = header[2];
  require(s.nx >= 1 && s.ny >= 1 && s.nz >= 1 && header[3] >= 0 && header[4] >= 0, "stack ", path, ": grid ", s.nx, "x",
          s.ny, "x", s.nz, ", ", header[3], " shots and ", header[4], " bytes of parameters are not a stack's");
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  const std::size_t points = std::size_t(s.nx) * std::size_t(s.ny) * std::size_t(s.nz);
  const std::uintmax_t expected = sizeof magic + sizeof header + sizeof crc + std::uintmax_t(header[3]) * 4 +
                                  std::uintmax_t(header[4]) + 2 * std::uintmax_t(points) * sizeof(float);
  require(!error && size == expected, "stack ", path, " holds ", size, " bytes, its header says ", expected);
  std::vector<std::int32_t> shots(static_cast<std::size_t>(header[3]));
  in.read(reinterpret_cast<char*>(shots.data()), std::streamsize(shots.size() * sizeof(std::int32_t)));
  s.shots.assign(shots.begin(), shots.end());
  s.fingerprint.resize(std::size_t(header[4]));
  in.read(s.fingerprint.data(), std::streamsize(s.fingerprint.size()));
  std::uint32_t sum = crc32_add(0, shots.data(), shots.size() * sizeof(std::int32_t));
  sum = crc32_add(sum, s.fingerprint.data(), s.fingerprint.size());
  if (keep_data) {
    s.image.resize(points);
    s.illumination.resize(points);
    in.read(reinterpret_cast<char*>(s.image.data()), std::streamsize(points * sizeof(float)));
    in.read(reinterpret_cast<char*>(s.illumination.data()), std::streamsize(points * sizeof(float)));
    sum = crc32_add(sum, s.image.data(), points * sizeof(float));
    sum = crc32_add(sum, s.illumination.data(), points * sizeof(float));
  } else {
    std::vector<char> buffer(std::size_t(1) << 22);
    for (std::uintmax_t left = 2 * std::uintmax_t(points) * sizeof(float); left > 0 && in.good();) {
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

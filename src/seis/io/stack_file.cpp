#include "seis/io/stack_file.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "seis/core/error.hpp"
#include "seis/io/atomic_file.hpp"

namespace seis::io {

namespace {
constexpr char magic[8] = {'S', 'E', 'I', 'S', 'S', 'T', 'K', '1'};

template <class T>
void append(std::string& bytes, const T* values, std::size_t count) {
  bytes.append(reinterpret_cast<const char*>(values), count * sizeof(T));
}
}  // namespace

void write_stack(const std::string& path, const Stack& s) {
  const std::size_t points = std::size_t(s.nx) * std::size_t(s.ny) * std::size_t(s.nz);
  require(s.image.size() == points && s.illumination.size() == points, "stack ", path, ": image of ", s.image.size(),
          " and illumination of ", s.illumination.size(), " values, the grid has ", points);
  std::string bytes(magic, sizeof magic);
  const std::int32_t header[4] = {s.nx, s.ny, s.nz, std::int32_t(s.shots.size())};
  append(bytes, header, 4);
  const std::vector<std::int32_t> shots(s.shots.begin(), s.shots.end());
  append(bytes, shots.data(), shots.size());
  append(bytes, s.image.data(), points);
  append(bytes, s.illumination.data(), points);
  write_bytes_atomically(path, bytes);
}

Stack read_stack(const std::string& path, bool header_only) {
  std::ifstream in(path, std::ios::binary);
  require(in.good(), "stack ", path, " cannot be read");
  char tag[sizeof magic] = {};
  std::int32_t header[4] = {};
  in.read(tag, sizeof tag);
  in.read(reinterpret_cast<char*>(header), sizeof header);
  require(in.good() && std::memcmp(tag, magic, sizeof magic) == 0, "stack ", path, " is not a seis-wave stack");
  Stack s;
  s.nx = header[0], s.ny = header[1], s.nz = header[2];
  require(s.nx >= 1 && s.ny >= 1 && s.nz >= 1 && header[3] >= 0, "stack ", path, ": grid ", s.nx, "x", s.ny, "x", s.nz,
          " and ", header[3], " shots are not a stack's");
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  require(!error && std::uintmax_t(header[3]) <= size / 4, "stack ", path, " holds ", size, " bytes, its header says ",
          header[3], " shots");
  std::vector<std::int32_t> shots{};
  shots.resize(std::size_t(header[3]));
  in.read(reinterpret_cast<char*>(shots.data()), std::streamsize(shots.size() * sizeof(std::int32_t)));
  s.shots.assign(shots.begin(), shots.end());
  const std::size_t points = std::size_t(s.nx) * std::size_t(s.ny) * std::size_t(s.nz);
  const std::uintmax_t expected = sizeof magic + sizeof header + shots.size() * 4 + 2 * points * sizeof(float);
  require(in.good() && size == expected, "stack ", path, " holds ", size, " bytes, its header says ", expected);
  if (header_only) return s;
  s.image.resize(points);
  s.illumination.resize(points);
  in.read(reinterpret_cast<char*>(s.image.data()), std::streamsize(points * sizeof(float)));
  in.read(reinterpret_cast<char*>(s.illumination.data()), std::streamsize(points * sizeof(float)));
  require(in.good(), "stack ", path, " cannot be read to its end");
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

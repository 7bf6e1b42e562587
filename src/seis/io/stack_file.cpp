#include "seis/io/stack_file.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "seis/core/error.hpp"
#include "seis/io/atomic_file.hpp"

namespace seis::io {

namespace {
constexpr char magic[8] = {'S', 'E', 'I', 'S', 'S', 'T', 'K', '1'};

}  // namespace

void write_stack(const std::string& path, const Stack& s) {
  const std::size_t points = std::size_t(s.nx) * std::size_t(s.ny) * std::size_t(s.nz);
  require(s.image.size() == points && s.illumination.size() == points, "stack ", path, ": image of ", s.image.size(),
          " and illumination of ", s.illumination.size(), " values, the grid has ", points);
  const std::int32_t header[4] = {s.nx, s.ny, s.nz, std::int32_t(s.shots.size())};
  const std::vector<std::int32_t> shots(s.shots.begin(), s.shots.end());
  // Written as it is held (a stack of 512^3 is 1 GiB: no copy of it first).
  write_atomically(path, [&](const std::string& temporary) {
    std::FILE* file = std::fopen(temporary.c_str(), "wb");
    require(file != nullptr, "cannot open ", temporary);
    bool ok = std::fwrite(magic, 1, sizeof magic, file) == sizeof magic;
    ok = ok && std::fwrite(header, sizeof header, 1, file) == 1;
    ok = ok && std::fwrite(shots.data(), sizeof(std::int32_t), shots.size(), file) == shots.size();
    ok = ok && std::fwrite(s.image.data(), sizeof(float), points, file) == points;
    ok = ok && std::fwrite(s.illumination.data(), sizeof(float), points, file) == points;
    ok = std::fflush(file) == 0 && ok;
    const bool closed = std::fclose(file) == 0;
    require(ok && closed, "writing the stack to ", temporary, " failed (the disk full?)");
  });
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

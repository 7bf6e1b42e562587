#include "seis/io/inversion_state.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "seis/core/error.hpp"
#include "seis/io/atomic_file.hpp"

namespace seis::io {

namespace {

constexpr char magic[8] = {'S', 'E', 'I', 'S', 'I', 'N', 'V', '1'};

}  // namespace

void write_inversion_state(const std::string& path, const InversionState& s) {
  const std::int64_t lengths[4] = {std::int64_t(s.fingerprint.size()), std::int64_t(s.history.size()),
                                   std::int64_t(s.scaling.size()), std::int64_t(s.optimiser.size())};
  const std::size_t scaling_bytes = s.scaling.size() * sizeof(double);
  std::uint32_t crc = crc32_of(&s.start_misfit, sizeof(double));
  crc = crc32_add(crc, s.fingerprint.data(), s.fingerprint.size());
  crc = crc32_add(crc, s.history.data(), s.history.size());
  crc = crc32_add(crc, s.scaling.data(), scaling_bytes);
  crc = crc32_add(crc, s.optimiser.data(), s.optimiser.size());
  // The optimiser's state is about 150 bytes a model point: written as it is held, not copied first.
  write_pieces_atomically(path, {{magic, sizeof magic},
                                 {lengths, sizeof lengths},
                                 {&crc, sizeof crc},
                                 {&s.start_misfit, sizeof(double)},
                                 {s.fingerprint.data(), s.fingerprint.size()},
                                 {s.history.data(), s.history.size()},
                                 {s.scaling.data(), scaling_bytes},
                                 {s.optimiser.data(), s.optimiser.size()}});
}

InversionState read_inversion_state(const std::string& path, const std::string& missing) {
  std::ifstream in(path, std::ios::binary);
  require(bool(in), path, " cannot be read: ", missing);
  char tag[sizeof magic] = {};
  std::int64_t n[4] = {};
  std::uint32_t crc = 0;
  in.read(tag, sizeof tag);
  in.read(reinterpret_cast<char*>(n), sizeof n);
  in.read(reinterpret_cast<char*>(&crc), sizeof crc);
  require(in.good() && std::memcmp(tag, magic, sizeof magic) == 0, path, " is not an inversion's state");
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  const std::uintmax_t head = sizeof magic + sizeof n + sizeof crc + sizeof(double);
  const bool sane = std::all_of(n, n + 4, [&](std::int64_t v) { return v >= 0 && std::uintmax_t(v) <= size; });
  require(
      !error && sane &&
          size == head + std::uintmax_t(n[0]) + std::uintmax_t(n[1]) + 8 * std::uintmax_t(n[2]) + std::uintmax_t(n[3]),
      path, " is damaged (its size is not what its header says)");
  InversionState s;
  s.fingerprint.resize(std::size_t(n[0]));
  s.history.resize(std::size_t(n[1]));
  s.scaling.resize(std::size_t(n[2]));
  s.optimiser.resize(std::size_t(n[3]));
  in.read(reinterpret_cast<char*>(&s.start_misfit), sizeof(double));
  in.read(s.fingerprint.data(), std::streamsize(s.fingerprint.size()));
  in.read(s.history.data(), std::streamsize(s.history.size()));
  in.read(reinterpret_cast<char*>(s.scaling.data()), std::streamsize(s.scaling.size() * sizeof(double)));
  in.read(s.optimiser.data(), std::streamsize(s.optimiser.size()));
  std::uint32_t sum = crc32_of(&s.start_misfit, sizeof(double));
  sum = crc32_add(sum, s.fingerprint.data(), s.fingerprint.size());
  sum = crc32_add(sum, s.history.data(), s.history.size());
  sum = crc32_add(sum, s.scaling.data(), s.scaling.size() * sizeof(double));
  sum = crc32_add(sum, s.optimiser.data(), s.optimiser.size());
  require(in.good() && sum == crc, path, " is damaged (its CRC-32 is not what it wrote)");
  return s;
}

}  // namespace seis::io

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

constexpr char magic[8] = {'S', 'E', 'I', 'S', 'I', 'N', 'V', '2'};
constexpr char first_magic[8] = {'S', 'E', 'I', 'S', 'I', 'N', 'V', '1'};

// The body's pieces after J(start), in the file's order.
struct Pieces {
  Bytes fingerprint, history, scaling, origin, optimiser;
};

Pieces pieces_of(const InversionState& s) {
  return {{s.fingerprint.data(), s.fingerprint.size()},
          {s.history.data(), s.history.size()},
          {s.scaling.data(), s.scaling.size() * sizeof(double)},
          {s.origin.data(), s.origin.size() * sizeof(double)},
          {s.optimiser.data(), s.optimiser.size()}};
}

std::uint32_t crc_of(const InversionState& s) {
  const Pieces p = pieces_of(s);
  std::uint32_t crc = crc32_of(&s.start_misfit, sizeof(double));
  for (const Bytes& b : {p.fingerprint, p.history, p.scaling, p.origin, p.optimiser})
    crc = crc32_add(crc, b.data, b.size);
  return crc;
}

}  // namespace

void write_inversion_state(const std::string& path, const InversionState& s) {
  const std::int64_t lengths[5] = {std::int64_t(s.fingerprint.size()), std::int64_t(s.history.size()),
                                   std::int64_t(s.scaling.size()), std::int64_t(s.origin.size()),
                                   std::int64_t(s.optimiser.size())};
  const std::uint32_t crc = crc_of(s);
  const Pieces p = pieces_of(s);
  // The optimiser's state is about 150 bytes a model point: written as it is held, not copied first.
  write_pieces_atomically(path, {{magic, sizeof magic},
                                 {lengths, sizeof lengths},
                                 {&crc, sizeof crc},
                                 {&s.start_misfit, sizeof(double)},
                                 p.fingerprint,
                                 p.history,
                                 p.scaling,
                                 p.origin,
                                 p.optimiser});
}

InversionState read_inversion_state(const std::string& path, const std::string& missing) {
  std::ifstream in(path, std::ios::binary);
  require(bool(in), path, " cannot be read: ", missing);
  char tag[sizeof magic] = {};
  std::int64_t n[5] = {};
  std::uint32_t crc = 0;
  in.read(tag, sizeof tag);
  require(!in.good() || std::memcmp(tag, first_magic, sizeof magic) != 0, path,
          " was written by an older seis-wave: invert anew (another --output, or --overwrite)");
  in.read(reinterpret_cast<char*>(n), sizeof n);
  in.read(reinterpret_cast<char*>(&crc), sizeof crc);
  require(in.good() && std::memcmp(tag, magic, sizeof magic) == 0, path, " is not an inversion's state");
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  const std::uintmax_t head = sizeof magic + sizeof n + sizeof crc + sizeof(double);
  const bool sane = std::all_of(n, n + 5, [&](std::int64_t v) { return v >= 0 && std::uintmax_t(v) <= size; });
  const auto count = [&](int i) { return std::size_t(n[i]); };
  require(
      !error && sane &&
          size == head + count(0) + count(1) + 8 * std::uintmax_t(count(2)) + 8 * std::uintmax_t(count(3)) + count(4),
      path, " is damaged (its size is not what its header says)");
  InversionState s;
  s.fingerprint.resize(count(0));
  s.history.resize(count(1));
  s.scaling.resize(count(2));
  s.origin.resize(count(3));
  s.optimiser.resize(count(4));
  in.read(reinterpret_cast<char*>(&s.start_misfit), sizeof(double));
  const auto read = [&](void* into, std::size_t bytes) { in.read(static_cast<char*>(into), std::streamsize(bytes)); };
  read(s.fingerprint.data(), s.fingerprint.size());
  read(s.history.data(), s.history.size());
  read(s.scaling.data(), s.scaling.size() * sizeof(double));
  read(s.origin.data(), s.origin.size() * sizeof(double));
  read(s.optimiser.data(), s.optimiser.size());
  require(in.good() && crc_of(s) == crc, path, " is damaged (its CRC-32 is not what it wrote)");
  return s;
}

}  // namespace seis::io

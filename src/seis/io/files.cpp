// Snapshots (raw float32 + JSON), checkpoints and raw velocity models.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <unistd.h>

#include "seis/core/error.hpp"
#include "seis/io/atomic_file.hpp"
#include "seis/io/fingerprint.hpp"
#include "seis/io/input_file.hpp"
#include "seis/io/outputs.hpp"

namespace seis::io {

void write_snapshot(const std::string& path, const std::vector<float>& values, const wave::Subdomain& part, double h,
                    int step, double time) {
  const int nx = part.size[0], ny = part.size[1], nz = part.size[2];
  write_bytes_atomically(path, values.data(), values.size() * sizeof(float));
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
  write_bytes_atomically(path + ".json", meta.dump(2) + "\n");
}

namespace {

// Version 2: every array and the header carry a CRC-32, so that a damaged checkpoint is found, not restored.
constexpr char magic[8] = {'S', 'E', 'I', 'S', 'C', 'K', 'P', '2'};
constexpr char magic_v1[8] = {'S', 'E', 'I', 'S', 'C', 'K', 'P', '1'};

struct Header {
  char magic[8];
  std::int64_t step, u, u_prev, phi, traces, fingerprint;
  std::uint32_t crc_fingerprint, crc_u, crc_u_prev, crc_phi, crc_traces;
  std::uint32_t crc_header;  // of every byte above
};

std::uint32_t header_crc(const Header& h) { return crc32_of(&h, offsetof(Header, crc_header)); }

std::uintmax_t expected_size(const Header& h) {
  return sizeof h + std::uintmax_t(h.fingerprint) + std::uintmax_t(h.u + h.u_prev + h.phi + h.traces) * sizeof(float);
}

// The header at the start of IN, checked: whether it is a whole, undamaged version 2 header (`why` says what is
// wrong otherwise).
bool read_checkpoint_header(std::istream& in, Header& h, std::string& why) {
  in.read(reinterpret_cast<char*>(&h), sizeof h);
  if (!in.good()) return why = "shorter than a header", false;
  if (std::memcmp(h.magic, magic_v1, sizeof magic) == 0)
    return why = "written by an older seis-wave (checkpoint version 1, no checksums); restart from the beginning",
           false;
  if (std::memcmp(h.magic, magic, sizeof magic) != 0) return why = "not a seis-wave checkpoint", false;
  if (header_crc(h) != h.crc_header) return why = "its header fails its CRC-32", false;
  const bool sane = h.fingerprint >= 0 && h.fingerprint < (1 << 24) && h.u >= 0 && h.u_prev >= 0 && h.phi >= 0 &&
                    h.traces >= 0 && h.step >= 0;
  if (!sane) return why = "corrupt header", false;
  return true;
}

// Opens the checkpoint at PATH and reads its header and fingerprint: refuses another run's (naming what differs);
// `damage` gets why it cannot be used where it is damaged (and the header is then not to be trusted).
Header open_checkpoint(std::ifstream& in, const std::string& path, const std::string& fingerprint,
                       std::string& damage) {
  Header h{};
  std::string why;
  if (!in.good()) return damage = "checkpoint " + path + " cannot be opened", h;
  if (!read_checkpoint_header(in, h, why)) return damage = "checkpoint " + path + ": " + why, h;
  std::string stored(std::size_t(h.fingerprint), '\0');
  in.read(stored.data(), std::streamsize(stored.size()));
  if (!in.good() || crc32_of(stored.data(), stored.size()) != h.crc_fingerprint)
    return damage = "checkpoint " + path + ": its parameters fail their CRC-32", h;
  require(stored == fingerprint, "checkpoint ", path, " belongs to another run; it differs in ",
          fingerprint_difference(stored, fingerprint, "the checkpoint"));
  return h;
}

// Reads the arrays after the fingerprint into `s` and checks each against its CRC-32; `damage` names the first
// that is short or fails.
void read_arrays(std::ifstream& in, const std::string& path, const Header& h, wave::State& s, std::string& damage) {
  s.step = int(h.step);
  const std::pair<std::vector<float>*, std::pair<std::int64_t, std::uint32_t>> arrays[] = {
      {&s.u, {h.u, h.crc_u}},
      {&s.u_prev, {h.u_prev, h.crc_u_prev}},
      {&s.phi, {h.phi, h.crc_phi}},
      {&s.traces, {h.traces, h.crc_traces}}};
  const char* names[] = {"u", "u_prev", "phi", "traces"};
  for (std::size_t a = 0; a < 4; ++a) {
    std::vector<float>& array = *arrays[a].first;
    array.resize(std::size_t(arrays[a].second.first));
    in.read(reinterpret_cast<char*>(array.data()), std::streamsize(array.size() * sizeof(float)));
    if (!in.good() && !array.empty()) {
      damage = "checkpoint " + path + ": truncated in " + names[a];
      return;
    }
    if (crc32_of(array.data(), array.size() * sizeof(float)) != arrays[a].second.second) {
      damage = "checkpoint " + path + ": " + names[a] + " fails its CRC-32 (damaged)";
      return;
    }
  }
}

// Whether PATH holds a checkpoint with a sound header and the length it gives: a write stopped before its fsync
// leaves a short .tmp (empty when the kill came before the first buffer flush).
bool whole_checkpoint(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return false;
  std::ifstream in(path, std::ios::binary);
  Header h{};
  std::string why;
  if (!read_checkpoint_header(in, h, why)) return false;
  const auto size = std::filesystem::file_size(path, error);
  return !error && size == expected_size(h);
}

std::string temporary_checkpoint(const std::string& path) { return path + ".tmp"; }

}  // namespace

void write_checkpoint(const std::string& path, const wave::State& s, const std::string& fingerprint) {
  const std::string temporary = temporary_checkpoint(path);
  {
    // Created afresh, never through a link planted under the temporary name.
    std::FILE* file = create_fresh(temporary);
    Header h{};
    std::memcpy(h.magic, magic, sizeof magic);
    h.step = s.step;
    h.u = std::int64_t(s.u.size());
    h.u_prev = std::int64_t(s.u_prev.size());
    h.phi = std::int64_t(s.phi.size());
    h.traces = std::int64_t(s.traces.size());
    h.fingerprint = std::int64_t(fingerprint.size());
    h.crc_fingerprint = crc32_of(fingerprint.data(), fingerprint.size());
    h.crc_u = crc32_of(s.u.data(), s.u.size() * sizeof(float));
    h.crc_u_prev = crc32_of(s.u_prev.data(), s.u_prev.size() * sizeof(float));
    h.crc_phi = crc32_of(s.phi.data(), s.phi.size() * sizeof(float));
    h.crc_traces = crc32_of(s.traces.data(), s.traces.size() * sizeof(float));
    h.crc_header = header_crc(h);
    bool ok = std::fwrite(&h, sizeof h, 1, file) == 1 &&
              std::fwrite(fingerprint.data(), 1, fingerprint.size(), file) == fingerprint.size();
    // An empty array (phi without a PML) has no data pointer, and fwrite's must not be null.
    for (const auto* array : {&s.u, &s.u_prev, &s.phi, &s.traces})
      ok = ok && (array->empty() || std::fwrite(array->data(), sizeof(float), array->size(), file) == array->size());
    ok = std::fflush(file) == 0 && ok;
    // On disk before the rename: after a machine crash the name must not point at blocks never written.
    ok = ::fsync(::fileno(file)) == 0 && ok;
    ok = std::fclose(file) == 0 && ok;
    if (!ok) {
      const int error = errno;
      ::unlink(temporary.c_str());
      throw std::runtime_error("checkpoint " + path + " not written: " + (out_of_space(error) ? "disk full: " : "") +
                               std::strerror(error));
    }
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

int checkpoint_step(const std::string& path, const std::string& fingerprint, std::string* damage) {
  if (!regular_file_or_none(path, "checkpoint")) return -1;
  std::ifstream in(path, std::ios::binary);
  std::string why;
  const Header h = open_checkpoint(in, path, fingerprint, why);
  wave::State s;
  if (why.empty()) read_arrays(in, path, h, s, why);
  if (damage != nullptr) *damage = why;
  return why.empty() ? int(h.step) : -1;
}

wave::State read_checkpoint(const std::string& path, const std::string& fingerprint) {
  require_regular_file(path, "checkpoint");
  std::ifstream in(path, std::ios::binary);
  std::string damage;
  const Header h = open_checkpoint(in, path, fingerprint, damage);
  wave::State s;
  if (damage.empty()) read_arrays(in, path, h, s, damage);
  require(damage.empty(), damage);
  return s;
}

std::vector<float> read_velocity_raw(const std::string& path, int nx, int ny, int nz) {
  return read_velocity_raw(path, wave::whole_grid(nx, ny, nz));
}

std::vector<float> read_velocity_raw(const std::string& path, const wave::Subdomain& part, std::size_t* bytes_read,
                                     const std::string& what) {
  const int nx = part.global[0], ny = part.global[1], nz = part.global[2];
  regular_file_or_none(path, what);
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  require(!error, what, " ", path, ": cannot be read (", error.message(), ")");
  const std::size_t needed = std::size_t(nx) * ny * nz * sizeof(float);
  require(size == needed, what, " ", path, ": ", size, " bytes, the ", nx, "x", ny, "x", nz, " grid needs ", needed,
          " (float32, x fastest)");
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
      require(in.good(), what, " ", path, ": read failed at byte ", row * sizeof(float));
    }
  if (bytes_read != nullptr) *bytes_read = velocity.size() * sizeof(float);
  return velocity;
}

}  // namespace seis::io

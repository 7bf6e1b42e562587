// Atomic writes (POSIX open/fsync/rename) and CRC-32 (zlib).
#include "seis/io/atomic_file.hpp"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "seis/core/error.hpp"
#include "seis/core/host_parallel.hpp"

namespace seis::io {

namespace {

std::string reason() { return std::strerror(errno); }

// fsync through a descriptor of its own: the writer (segyio, a stream) has closed the file already.
void sync(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW);
  require(fd >= 0, "cannot reopen ", path, " to sync it: ", reason());
  const bool ok = ::fsync(fd) == 0;
  const std::string why = ok ? "" : reason();
  ::close(fd);
  require(ok, "cannot sync ", path, ": ", why);
}

}  // namespace

bool out_of_space(int error) { return error == ENOSPC || error == EDQUOT || error == EFBIG; }

std::FILE* create_fresh(const std::string& path) {
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) fail("cannot remove ", path, ": ", reason());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
  require(fd >= 0, "cannot create ", path, ": ", reason());
  std::FILE* file = ::fdopen(fd, "wb");
  if (file == nullptr) ::close(fd);
  require(file != nullptr, "cannot open ", path, ": ", reason());
  return file;
}

void write_atomically(const std::string& path, const std::function<void(const std::string& temporary)>& write) {
  const std::string temporary = path + ".partial";
  try {
    std::fclose(create_fresh(temporary));  // the writer opens it again by name
    write(temporary);
    sync(temporary);
    if (::rename(temporary.c_str(), path.c_str()) != 0) fail("cannot rename ", temporary, " to ", path, ": ", reason());
  } catch (const std::exception& e) {
    const int error = errno;
    ::unlink(temporary.c_str());
    throw std::runtime_error(path + " not written: " + (out_of_space(error) ? "disk full: " : "") + e.what());
  }
}

void write_pieces_atomically(const std::string& path, const std::vector<Bytes>& pieces) {
  write_atomically(path, [&](const std::string& temporary) {
    std::FILE* file = std::fopen(temporary.c_str(), "wb");
    require(file != nullptr, "cannot open ", temporary, ": ", reason());
    bool ok = true;
    std::size_t size = 0;
    for (const Bytes& piece : pieces) {
      ok = ok && (piece.size == 0 || std::fwrite(piece.data, 1, piece.size, file) == piece.size);
      size += piece.size;
    }
    ok = std::fflush(file) == 0 && ok;
    const std::string why = ok ? "" : reason();
    const bool closed = std::fclose(file) == 0;
    require(ok && closed, "writing ", size, " bytes to ", temporary, " failed: ", ok ? reason() : why);
  });
}

void write_bytes_atomically(const std::string& path, const void* data, std::size_t size) {
  write_pieces_atomically(path, {{data, size}});
}

void write_bytes_atomically(const std::string& path, const std::string& bytes) {
  write_bytes_atomically(path, bytes.data(), bytes.size());
}

std::uint32_t crc32_of(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  struct Piece {
    uLong crc;
    std::size_t size;
  };
  // Pieces on the host's CPUs, joined by zlib's crc32_combine (a model's 537 MB took 0.3 s in one thread); zlib's
  // length is 32-bit, so a piece goes in runs of at most 1 GiB.
  const Piece whole = host_parallel_reduce(
      size, Piece{crc32(0L, Z_NULL, 0), 0},
      [&](std::size_t begin, std::size_t end) {
        uLong crc = crc32(0L, Z_NULL, 0);
        for (std::size_t done = begin; done < end;) {
          const std::size_t run = std::min<std::size_t>(end - done, std::size_t(1) << 30);
          crc = crc32(crc, bytes + done, uInt(run));
          done += run;
        }
        return Piece{crc, end - begin};
      },
      [](Piece a, Piece b) {
        return Piece{crc32_combine(a.crc, b.crc, z_off_t(b.size)), a.size + b.size};
      },
      std::size_t(1) << 24);
  return static_cast<std::uint32_t>(whole.crc);
}

std::uint32_t crc32_add(std::uint32_t crc, const void* data, std::size_t size) {
  return std::uint32_t(crc32_combine(crc, crc32_of(data, size), z_off_t(size)));
}

std::uint32_t file_crc32(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  require(file != nullptr, "cannot open ", path, ": ", reason());
  uLong crc = crc32(0L, Z_NULL, 0);
  std::vector<unsigned char> buffer(1 << 20);
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), file)) > 0) crc = crc32(crc, buffer.data(), uInt(n));
  const bool ok = std::ferror(file) == 0;
  std::fclose(file);
  require(ok, "cannot read ", path);
  return static_cast<std::uint32_t>(crc);
}

}  // namespace seis::io

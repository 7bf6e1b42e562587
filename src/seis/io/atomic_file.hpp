#pragma once
// Files that are either whole or absent: written under a temporary name beside their own, checked to the last
// close, synced, then renamed into place. A crash or a full disk leaves the old file (or none), never half of one.
// Host-only.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace seis::io {

// A new file at PATH for writing, opened "wb": a leftover or a link of that name is removed (never followed) and
// the file created exclusively, so a link planted between the two steps is refused. Throws naming the path.
std::FILE* create_fresh(const std::string& path);

// `write` fills the temporary file whose name it is given (PATH.partial: a link of that name is removed, never
// followed, and the file is created exclusively); it throws, or leaves a file that cannot be synced, on failure.
// Then the temporary is synced and renamed over PATH. On any failure the temporary is removed and the exception
// names PATH ("PATH not written: disk full: ..." where the file system is full).
void write_atomically(const std::string& path, const std::function<void(const std::string& temporary)>& write);

// `bytes` written through write_atomically, every write and the close checked.
void write_bytes_atomically(const std::string& path, const void* data, std::size_t size);
void write_bytes_atomically(const std::string& path, const std::string& bytes);
// The pieces one after another, as write_bytes_atomically writes one: a file of headers and arrays without a copy
// of them first.
struct Bytes {
  const void* data;
  std::size_t size;
};
void write_pieces_atomically(const std::string& path, const std::vector<Bytes>& pieces);

// Whether errno `error` says the disk (or the quota, or the file-size limit) is full: messages then say "disk full".
bool out_of_space(int error);

// The CRC-32 (zlib's) of bytes in memory, and of a file's bytes (throws naming the path where it cannot be read);
// crc32_add: of the bytes `crc` was of followed by these.
std::uint32_t crc32_of(const void* data, std::size_t size);
std::uint32_t crc32_add(std::uint32_t crc, const void* data, std::size_t size);
std::uint32_t file_crc32(const std::string& path);

}  // namespace seis::io

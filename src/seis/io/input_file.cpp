#include "seis/io/input_file.hpp"

#include <filesystem>

#include "seis/core/error.hpp"

namespace seis::io {

namespace fs = std::filesystem;

std::string file_kind(const std::string& path) {
  std::error_code error;
  // status() is stat(2): it neither opens nor blocks on a FIFO.
  switch (fs::status(path, error).type()) {
    case fs::file_type::regular:
      return "a regular file";
    case fs::file_type::directory:
      return "a directory";
    case fs::file_type::fifo:
      return "a FIFO";
    case fs::file_type::socket:
      return "a socket";
    case fs::file_type::block:
      return "a block device";
    case fs::file_type::character:
      return "a character device";
    case fs::file_type::not_found:
      return "nothing";
    default:
      return "not a regular file";
  }
}

bool regular_file_or_none(const std::string& path, const std::string& what) {
  const std::string kind = file_kind(path);
  if (kind == "nothing") return false;
  require(kind == "a regular file", what, " ", path, " is ", kind, ", not a regular file");
  return true;
}

void require_regular_file(const std::string& path, const std::string& what) {
  require(regular_file_or_none(path, what), what, " ", path, " does not exist");
}

}  // namespace seis::io

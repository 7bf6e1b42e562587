#pragma once
// Files a run reads, checked before they are opened: a FIFO would block the open or the read forever, a directory
// fails late and obscurely, a device reads without bound. Host-only.
#include <string>

namespace seis::io {

// Refuses (seis::InvalidArgument) PATH unless it is a regular file (after links): "WHAT PATH is a FIFO, not a
// regular file" and the like, or "WHAT PATH does not exist".
void require_regular_file(const std::string& path, const std::string& what);

// False where nothing is at PATH; true for a regular file; refuses anything else, as require_regular_file.
bool regular_file_or_none(const std::string& path, const std::string& what);

// "a FIFO", "a directory", ... : what stands at PATH where a regular file was expected ("nothing" if absent).
std::string file_kind(const std::string& path);

}  // namespace seis::io

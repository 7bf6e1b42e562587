# cmake -DSOURCE_DIR=... -DOUTPUT=... -DCOMPILER=... -DVERSION=... -P SeisBuildInfo.cmake: writes the build-info header, touching
# it only when its content changes.
execute_process(COMMAND git -C "${SOURCE_DIR}" rev-parse --short=12 HEAD OUTPUT_VARIABLE commit
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE no_git)
if(no_git OR commit STREQUAL "")
  set(commit "unknown")
endif()
execute_process(COMMAND git -C "${SOURCE_DIR}" status --porcelain --untracked-files=no OUTPUT_VARIABLE changes
                ERROR_QUIET)
if(changes STREQUAL "")
  set(dirty false)
else()
  set(dirty true)
endif()
# The kernel code's version, for the tuning cache: a hash of every header that shapes what a kernel does on the
# device, so a tuned launch is reused only with the code it was measured on.
file(GLOB kernel_headers "${SOURCE_DIR}/src/seis/kernels/*.hpp" "${SOURCE_DIR}/src/seis/wave/*.hpp"
     "${SOURCE_DIR}/src/seis/core/memory_ops.hpp" "${SOURCE_DIR}/src/seis/core/layout.hpp")
list(SORT kernel_headers)
set(kernel_text "")
foreach(header IN LISTS kernel_headers)
  file(SHA256 "${header}" header_hash)
  string(APPEND kernel_text "${header_hash}")
endforeach()
string(SHA256 kernel_code "${kernel_text}")
string(SUBSTRING "${kernel_code}" 0 12 kernel_code)
set(content "#pragma once
#include <string>
namespace seis::build_info {
inline constexpr const char* git_commit = \"${commit}\";
inline constexpr bool git_dirty = ${dirty};
inline constexpr const char* compiler = \"${COMPILER}\";
inline constexpr const char* version = \"${VERSION}\";
inline constexpr const char* kernel_code_version = \"${kernel_code}\";
// --version's line: the program, the project version, the commit, Kokkos and its backend, the compiler.
inline std::string version_line(const std::string& program, const std::string& kokkos, const std::string& backend) {
  return program + \" \" + version + \" (commit \" + git_commit + (git_dirty ? \", modified\" : \"\") + \"; Kokkos \" + kokkos +
         \", \" + backend + \"; \" + compiler + \")\";
}
}  // namespace seis::build_info
")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL content)
  file(WRITE "${OUTPUT}" "${content}")
endif()

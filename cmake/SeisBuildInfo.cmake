# cmake -DSOURCE_DIR=... -DOUTPUT=... -DCOMPILER=... -P SeisBuildInfo.cmake: writes the build-info header, touching
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
set(content "#pragma once
namespace seis::build_info {
inline constexpr const char* git_commit = \"${commit}\";
inline constexpr bool git_dirty = ${dirty};
inline constexpr const char* compiler = \"${COMPILER}\";
}  // namespace seis::build_info
")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL content)
  file(WRITE "${OUTPUT}" "${content}")
endif()

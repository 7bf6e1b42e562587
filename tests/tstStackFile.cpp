// A migration's partial stack as a file (seis/io/stack_file.hpp): read back bitwise, listed in its directory, and
// refused, naming the path, when it is not a stack or not whole.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "expect_error.hpp"
#include "seis/io/stack_file.hpp"

namespace {

namespace fs = std::filesystem;

TEST(StackFile, ReadsBackWhatWasWritten) {
  const fs::path dir = fs::temp_directory_path() / ("stack-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  seis::io::Stack s{3, 2, 4, {7, 2, 11}, {}, {}};
  for (int p = 0; p < 24; ++p) s.image.push_back(0.25f * float(p) - 1.0f), s.illumination.push_back(float(p * p));
  const std::string path = (dir / "stack-g00001-r00000.bin").string();
  seis::io::write_stack(path, s);
  const seis::io::Stack back = seis::io::read_stack(path);
  EXPECT_EQ(back.nx, 3);
  EXPECT_EQ(back.ny, 2);
  EXPECT_EQ(back.nz, 4);
  EXPECT_EQ(back.shots, s.shots);
  EXPECT_EQ(back.image, s.image);
  EXPECT_EQ(back.illumination, s.illumination);
  EXPECT_EQ(seis::io::read_stack(path, true).shots, s.shots);
  EXPECT_EQ(seis::io::stack_files(dir.string()), std::vector<std::string>{path});

  fs::resize_file(path, fs::file_size(path) - 4);
  seis::test::expect_error_mentioning([&] { seis::io::read_stack(path); }, "its header says");
  std::ofstream(path, std::ios::binary) << "not a stack at all, but long enough to hold a header";
  seis::test::expect_error_mentioning([&] { seis::io::read_stack(path); }, "is not a seis-wave stack");
  s.image.pop_back();
  seis::test::expect_error_mentioning([&] { seis::io::write_stack(path, s); }, "the grid has 24");
  fs::remove_all(dir);
}

}  // namespace

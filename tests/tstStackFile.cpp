// A migration's partial stack as a file (seis/io/stack_file.hpp): read back bitwise with its fingerprint, listed in
// its directory, with or without the density's image, and refused, naming the path, when it is not a stack, not
// whole, damaged (its CRC-32), of an earlier format or not a regular file.
#include <gtest/gtest.h>
#include <sys/stat.h>
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
  seis::io::Stack s{3, 2, 4, {7, 2, 11}, "grid 3x2x4\nsmooth 0x1p+5", {}, {}, {}};
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
  EXPECT_EQ(back.fingerprint, s.fingerprint);
  const seis::io::Stack header = seis::io::read_stack(path, false);
  EXPECT_EQ(header.shots, s.shots);
  EXPECT_EQ(header.fingerprint, s.fingerprint);
  EXPECT_TRUE(header.image.empty());

  // Any byte after the header changed (a shot number, the parameters, the image, the illumination's last value),
  // whether the data are kept or read through: the CRC-32 fails.
  const auto size = fs::file_size(path);
  for (const std::uintmax_t at : {std::uintmax_t(37), std::uintmax_t(52), std::uintmax_t(84), size - 1})
    for (const bool keep : {true, false}) {
      std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
      f.seekg(std::streamoff(at));
      const char was = char(f.get());
      f.seekp(std::streamoff(at));
      f.put(char(was ^ 0x10));
      f.close();
      seis::test::expect_error_mentioning([&] { seis::io::read_stack(path, keep); }, "fails its CRC-32");
      std::fstream g(path, std::ios::in | std::ios::out | std::ios::binary);
      g.seekp(std::streamoff(at));
      g.put(was);
    }
  EXPECT_EQ(seis::io::read_stack(path).image, s.image);
  EXPECT_TRUE(seis::io::read_stack(path).density_image.empty());
  EXPECT_EQ(seis::io::stack_files(dir.string()), std::vector<std::string>{path});

  // A third volume, the density's image: read back, under the CRC (its last value changed fails it).
  for (int p = 0; p < 24; ++p) s.density_image.push_back(1.0f / float(p + 1));
  seis::io::write_stack(path, s);
  EXPECT_EQ(seis::io::read_stack(path).density_image, s.density_image);
  EXPECT_EQ(seis::io::read_stack(path).illumination, s.illumination);
  EXPECT_TRUE(seis::io::read_stack(path, false).density_image.empty());
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-1, std::ios::end);
    f.put(char(0x7f));
  }
  seis::test::expect_error_mentioning([&] { seis::io::read_stack(path, false); }, "fails its CRC-32");
  s.density_image.pop_back();
  seis::test::expect_error_mentioning([&] { seis::io::write_stack(path, s); }, "density image 23");
  s.density_image.clear();

  fs::resize_file(path, fs::file_size(path) - 4);
  seis::test::expect_error_mentioning([&] { seis::io::read_stack(path); }, "its header says");
  std::ofstream(path, std::ios::binary) << "not a stack at all, but long enough to hold a header";
  seis::test::expect_error_mentioning([&] { seis::io::read_stack(path); }, "is not a seis-wave stack");
  for (const char* older : {"SEISSTK1 a stack of the first format, without a checksum",
                            "SEISSTK2 a stack of the second format, without a volume count"}) {
    std::ofstream(path, std::ios::binary) << older;
    seis::test::expect_error_mentioning([&] { seis::io::read_stack(path); }, "older seis-wave");
  }
  fs::remove(path);
  ASSERT_EQ(::mkfifo(path.c_str(), 0644), 0);
  seis::test::expect_error_mentioning([&] { seis::io::read_stack(path); }, "is a FIFO");
  fs::remove(path);
  s.image.pop_back();
  seis::test::expect_error_mentioning([&] { seis::io::write_stack(path, s); }, "the grid has 24");
  fs::remove_all(dir);
}

}  // namespace

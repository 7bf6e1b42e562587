// A volume (an image, a model) as SEG-Y and as two pictures: read back as seis-wave reads models, headers as
// documented, and each picture's cells where the volume's points are.
#include <gtest/gtest.h>
#include <segyio/segy.h>
#include <stb/stb_image.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>

#include "seis/io/outputs.hpp"
#include "seis/io/picture.hpp"
#include "seis/io/volume.hpp"

namespace {

namespace fs = std::filesystem;

std::string temporary(const std::string& name) {
  return (fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()))).string();
}

TEST(Volume, SegyReadsBackAsAModelWithItsHeaders) {
  const int nx = 5, ny = 4, nz = 3;
  std::vector<float> v(std::size_t(nx) * ny * nz);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> value(-1, 1);
  for (float& x : v) x = value(rng);
  for (const double h : {20.0, 12.5}) {
    const std::string path = temporary("volume") + ".sgy";
    seis::io::write_volume_segy(path, v, nx, ny, nz, h, "image");
    EXPECT_EQ(seis::io::read_velocity_segy(path, nx, ny, nz), v);
    segy_file* f = segy_open(path.c_str(), "rb");
    ASSERT_NE(f, nullptr);
    char binary[SEGY_BINARY_HEADER_SIZE], header[SEGY_TRACE_HEADER_SIZE];
    ASSERT_EQ(segy_binheader(f, binary), SEGY_OK);
    int interval = -1, system = -1;
    segy_get_bfield(binary, SEGY_BIN_INTERVAL, &interval);
    segy_get_bfield(binary, SEGY_BIN_MEASUREMENT_SYSTEM, &system);
    EXPECT_EQ(interval, h == 20.0 ? 20 : 0);
    EXPECT_EQ(system, 1);
    // Trace 7: the column i = 2, j = 1.
    ASSERT_EQ(segy_traceheader(f, 7, header, segy_trace0(binary), segy_trsize(SEGY_IEEE_FLOAT_4_BYTE, nz)), SEGY_OK);
    const auto field = [&](int which) {
      int x = 0;
      segy_get_field(header, which, &x);
      return x;
    };
    EXPECT_EQ(field(SEGY_TR_CDP_X), int(2 * h * 100));
    EXPECT_EQ(field(SEGY_TR_CDP_Y), int(1 * h * 100));
    EXPECT_EQ(field(SEGY_TR_SOURCE_GROUP_SCALAR), -100);
    EXPECT_EQ(field(SEGY_TR_INLINE), 2);
    EXPECT_EQ(field(SEGY_TR_CROSSLINE), 3);
    segy_close(f);
    fs::remove(path);
  }
}

// A spike at (i, j, k) = (7, 2, 5) and a dip at (1, 2, 0) of a 10 x 4 x 6 volume: the x-z section at y index 2
// shows both, the x-y slice at depth index 5 the spike only, each in its cell (depth and y grow downwards).
// A model that segyio's Python writer made little-endian in IBM floats (tests/data/segy/make_layouts.py): read as
// the big-endian IEEE ones are, column (i, j) from trace j nx + i.
TEST(Volume, ReadsALittleEndianIbmModelThatSegyioWrote) {
  const int nx = 2, ny = 3, nz = 4;
  const auto v =
      seis::io::read_velocity_segy(std::string(SEIS_TEST_DATA) + "/segy/velocity-ibm-little-endian.sgy", nx, ny, nz);
  ASSERT_EQ(v.size(), std::size_t(nx * ny * nz));
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        EXPECT_EQ(v[std::size_t((k * ny + j) * nx + i)], 1500.0f + 100 * i + 10 * j + k) << i << " " << j << " " << k;
}

TEST(Volume, SectionsShowEachPointInItsCell) {
  const int nx = 10, ny = 4, nz = 6;
  std::vector<float> v(std::size_t(nx) * ny * nz, 0.0f);
  const auto at = [&](int i, int j, int k) -> float& { return v[(std::size_t(k) * ny + j) * nx + i]; };
  at(7, 2, 5) = 1.0f;
  at(1, 2, 0) = -1.0f;
  const std::string stem = temporary("sections");
  const auto paths = seis::io::write_volume_sections(stem, v, nx, ny, nz, 10.0, 2, 5, "image", "amplitude");
  ASSERT_EQ(paths, (std::vector<std::string>{stem + "-xz.png", stem + "-xy.png"}));
  // The pictures' data areas: the longest side (x, 10 cells) 600 pixels, 60 pixels a cell.
  const auto colour = [&](const std::string& path, int rows, int row, int column) {
    seis::io::Picture p;
    p.width = 600;
    p.height = 60 * rows;
    const seis::io::PictureLayout l = seis::io::picture_layout(p);
    int width = 0, height = 0, channels = 0;
    unsigned char* pixels = stbi_load(path.c_str(), &width, &height, &channels, 3);
    EXPECT_NE(pixels, nullptr);
    if (pixels == nullptr) return std::vector<int>{};
    EXPECT_EQ(width, l.width);
    EXPECT_EQ(height, l.height);
    const unsigned char* c =
        pixels +
        (std::size_t(l.data_y0 + 60 * row + 30) * std::size_t(width) + std::size_t(l.data_x0 + 60 * column + 30)) * 3;
    std::vector<int> rgb{c[0], c[1], c[2]};
    stbi_image_free(pixels);
    return rgb;
  };
  const std::vector<int> red{255, 0, 0}, blue{0, 0, 255}, white{255, 255, 255};
  EXPECT_EQ(colour(paths[0], nz, 5, 7), red);
  EXPECT_EQ(colour(paths[0], nz, 0, 1), blue);
  EXPECT_EQ(colour(paths[0], nz, 5, 1), white);
  EXPECT_EQ(colour(paths[1], ny, 2, 7), red);
  EXPECT_EQ(colour(paths[1], ny, 2, 1), white);
  for (const auto& p : paths) fs::remove(p);
}

}  // namespace

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "seis/core/error.hpp"
#include "seis/core/fast_divisor.hpp"
#include "seis/core/field.hpp"

namespace {

TEST(Layout, InteriorRowsStartOnTheLayoutsAlignment) {
  for (int R = 0; R <= seis::max_radius; ++R) {
    const auto L = seis::make_layout(37, 5, 3, R);
    seis::Field<Kokkos::HostSpace> field("f", L);
    for (int k = -R; k < L.nz + R; ++k) {
      for (int j = -R; j < L.ny + R; ++j) {
        const auto address = reinterpret_cast<std::uintptr_t>(field.data() + L.offset(0, j, k));
        ASSERT_EQ(address % seis::alignment_bytes, 0u) << "R = " << R << ", row j = " << j << ", k = " << k;
      }
    }
    EXPECT_GE(L.lead, R);
    EXPECT_GE(L.ldx, L.lead + (L.nx + 3) / 4 * 4 + (R + 3) / 4 * 4)
        << "vector reads past the row end must stay in the row";
  }
}

TEST(Layout, HaloPointsLieInsideTheAllocation) {
  for (int halo : {8, seis::max_halo}) {
    const auto L = seis::make_layout(1, 1, 1, halo);
    EXPECT_GE(L.offset(-halo, -halo, -halo), 0);
    EXPECT_LT(static_cast<std::size_t>(L.offset(L.nx + halo - 1, L.ny + halo - 1, L.nz + halo - 1)), L.size);
  }
}

TEST(Layout, RejectsNonPositiveSizes) {
  EXPECT_THROW(seis::make_layout(0, 4, 4, 1), seis::InvalidArgument);
  EXPECT_THROW(seis::make_layout(4, -3, 4, 1), seis::InvalidArgument);
  try {
    seis::make_layout(4, 4, 0, 1);
    FAIL() << "nz = 0 accepted";
  } catch (const seis::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("nz = 0"), std::string::npos) << e.what();
  }
}

TEST(Layout, RejectsHaloOutsideZeroToFifteen) {
  EXPECT_THROW(seis::make_layout(4, 4, 4, seis::max_halo + 1), seis::InvalidArgument);
  EXPECT_THROW(seis::make_layout(4, 4, 4, -1), seis::InvalidArgument);
}

TEST(Layout, RejectsPlanesThatOverflowInPlaneOffsets) {
  const int big = std::numeric_limits<int>::max() / 2;
  EXPECT_THROW(seis::make_layout(big, 1, 1, 4), seis::InvalidArgument);
  try {
    seis::make_layout(50000, 50000, 1, 4);
    FAIL() << "50000 x 50000 planes accepted";
  } catch (const seis::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("in-plane offset limit"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(seis::make_layout(40000, 40000, 1, 0));
}

// 1400^3 at halo 4 holds 2.8e9 floats: its offsets go past 2^31 without wrapping.
TEST(Layout, OffsetsBeyondTwoToThe31AreExact) {
  const auto L = seis::make_layout(1400, 1400, 1400, 4);
  EXPECT_GT(L.size, std::size_t(1) << 31);
  const std::int64_t expected = std::int64_t(1399 + 4) * L.plane + std::int64_t(1399 + 4) * L.ldx + L.lead + 1399;
  EXPECT_EQ(L.offset(1399, 1399, 1399), expected);
  EXPECT_LT(std::size_t(L.offset(1399, 1399, 1399)), L.size);
  EXPECT_EQ(L.offset(0, 0, 1400 + 3) - L.offset(0, 0, 1400 + 2), L.plane);
}

// point() inverts offset() at every point, the halo's included, and beyond 2^31 floats.
TEST(Layout, PointIsTheOffsetsInverse) {
  const auto L = seis::make_layout(13, 7, 5, 3);
  for (int k = -3; k < 5 + 3; ++k)
    for (int j = -3; j < 7 + 3; ++j)
      for (int i = -3; i < 13 + 3; ++i) {
        int x = 0, y = 0, z = 0;
        L.point(L.offset(i, j, k), x, y, z);
        ASSERT_EQ(x, i);
        ASSERT_EQ(y, j);
        ASSERT_EQ(z, k);
      }
  const auto big = seis::make_layout(1400, 1400, 1400, 4);
  int x = 0, y = 0, z = 0;
  big.point(big.offset(1398, 1399, 1401), x, y, z);
  EXPECT_EQ(x, 1398);
  EXPECT_EQ(y, 1399);
  EXPECT_EQ(z, 1401);
}

// The y-z transposed view addresses the same floats with y and z exchanged, and refuses fields whose offsets would
// pass its 32-bit in-plane limit.
TEST(Layout, TransposedViewExchangesYAndZ) {
  const auto L = seis::make_layout(37, 23, 11, 4);
  const auto T = seis::transposed_yz(L);
  EXPECT_EQ(T.nx, 37);
  EXPECT_EQ(T.ny, 11);
  EXPECT_EQ(T.nz, 23);
  EXPECT_EQ(T.size, L.size);
  for (int k = -4; k < 11 + 4; ++k)
    for (int j = -4; j < 23 + 4; ++j)
      for (int i : {-4, 0, 17, 36, 40}) ASSERT_EQ(T.offset(i, k, j), L.offset(i, j, k)) << i << " " << j << " " << k;
  try {
    seis::transposed_yz(seis::make_layout(1400, 1400, 1400, 4));
    FAIL() << "a 2.8e9-float field accepted";
  } catch (const seis::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("32-bit limit"), std::string::npos) << e.what();
  }
}

TEST(Field, DeepCopyRejectsDifferentLayouts) {
  seis::Field<Kokkos::HostSpace> a("a", seis::make_layout(4, 4, 4, 1));
  seis::Field<Kokkos::HostSpace> b("b", seis::make_layout(4, 4, 5, 1));
  EXPECT_THROW(seis::deep_copy(a, b), seis::InvalidArgument);
}

}  // namespace

// The multiply-and-shift division and its remainder against integer division: every divisor a tile size can take and
// beyond, with numerators near each multiple and at the top of the range.
TEST(FastDivisor, MatchesIntegerDivision) {
  for (int d : {1, 2, 3, 5, 7, 12, 31, 32, 33, 60, 127, 512, 1023, 1024, 65537, 1 << 30, 2147483647}) {
    const seis::FastDivisor f(d);
    ASSERT_EQ(f.divisor, d);
    for (std::int64_t q = 0; q * d < std::numeric_limits<int>::max() && q < 100000; q += 1 + q / 64)
      for (std::int64_t n : {q * d - 1, q * d, q * d + 1, q * d + d - 1})
        if (n >= 0 && n <= std::numeric_limits<int>::max()) {
          ASSERT_EQ(f.divide(int(n)), int(n / d)) << n << " / " << d;
          const seis::DivMod s = f.split(int(n));
          ASSERT_EQ(s.quotient, int(n / d)) << n << " / " << d;
          ASSERT_EQ(s.remainder, int(n % d)) << n << " % " << d;
        }
    ASSERT_EQ(f.divide(std::numeric_limits<int>::max()), std::numeric_limits<int>::max() / d) << d;
  }
  EXPECT_THROW(seis::FastDivisor(0), seis::InvalidArgument);
}

// The split by a size known when compiling (a fixed tile's) and by one given at run time (0: none known).
TEST(FastDivisor, SplitsByAConstantOrAtRunTime) {
  const auto check = [](auto split_by, int d) {
    for (int n = 0; n < 4096; ++n) {
      const seis::DivMod s = split_by(n);
      ASSERT_EQ(s.quotient, n / d) << n << " / " << d;
      ASSERT_EQ(s.remainder, n % d) << n << " % " << d;
    }
  };
  const seis::FastDivisor seven(7), twelve(12), sixty_four(64);
  check([&](int n) { return seis::split<12>(n, twelve); }, 12);
  check([&](int n) { return seis::split<64>(n, sixty_four); }, 64);
  check([&](int n) { return seis::split<0>(n, seven); }, 7);
}

// Host-only: the absorbing layer outside the model (seis/wave/padding.hpp): the padded grid, the model continued over
// the layer and cropped back, a perturbation's zero padding as the crop's exact transpose, decomposed parts as the
// whole, and positions in the model's coordinates.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "expect_error.hpp"
#include "seis/wave/padding.hpp"
#include "test_fields.hpp"

namespace {

using namespace seis::wave;

std::vector<float> random_values(std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = uniform(rng);
  return v;
}

float at(const std::vector<float>& v, int nx, int ny, int i, int j, int k) {
  return v[(std::size_t(k) * std::size_t(ny) + std::size_t(j)) * std::size_t(nx) + std::size_t(i)];
}

// A random model of `n` points padded by `d` on every face, and its values continued over the layer.
struct PaddedModel {
  Grid g;
  Subdomain model;
  std::vector<float> v, over;
};
PaddedModel padded_model(const std::array<int, 3>& n, int d, std::mt19937& rng) {
  PaddedModel m{padded_grid(n, 10.0, d, Boundary::pml), whole_grid(n[0], n[1], n[2]), {}, {}};
  m.v = random_values(m.model.points(), rng);
  m.over = extend(m.g, whole_grid(m.g), m.model, m.v, Fill::edge);
  return m;
}

}  // namespace

TEST(Padding, TheLayerIsAddedOutsideTheModel) {
  const Grid g = padded_grid({30, 20, 10}, 12.5, 4, Boundary::pml);
  EXPECT_EQ(g.nx, 38);
  EXPECT_EQ(g.ny, 28);
  EXPECT_EQ(g.nz, 18);
  EXPECT_EQ(g.h, 12.5);
  EXPECT_EQ(g.ndamp, 4);
  EXPECT_EQ(model_points(g), (std::array<int, 3>{30, 20, 10}));
  const Subdomain model = model_region(g);
  EXPECT_EQ(model.offset[0], 4);
  EXPECT_EQ(model.offset[2], 4);
  EXPECT_EQ(model.size[1], 20);
  EXPECT_EQ(model.global[0], 38);
  // Without a layer the grid is the model's.
  const Grid bare = padded_grid({30, 20, 10}, 12.5, 4, Boundary::none);
  EXPECT_EQ(bare.nx, 30);
  EXPECT_EQ(bare.pad_low, (std::array<int, 3>{0, 0, 0}));
}

// The layer takes the nearest model point's value (so a wave enters it without meeting a contrast); cropping gives the
// model back.
TEST(Padding, TheModelContinuesOverTheLayerAndCropsBack) {
  std::mt19937 rng(seis::test::test_seed());
  const auto [g, model, v, over] = padded_model({7, 5, 6}, 3, rng);
  ASSERT_EQ(over.size(), std::size_t(13 * 11 * 12));
  EXPECT_EQ(at(over, 13, 11, 0, 0, 0), at(v, 7, 5, 0, 0, 0));
  EXPECT_EQ(at(over, 13, 11, 12, 10, 11), at(v, 7, 5, 6, 4, 5));
  EXPECT_EQ(at(over, 13, 11, 5, 0, 7), at(v, 7, 5, 2, 0, 4));
  EXPECT_EQ(at(over, 13, 11, 5, 6, 7), at(v, 7, 5, 2, 3, 4));
  EXPECT_EQ(crop(g, over), v);
  const std::vector<float> zero = extend(g, whole_grid(g), model, v, Fill::zero);
  EXPECT_EQ(at(zero, 13, 11, 0, 5, 5), 0.0f);
  EXPECT_EQ(at(zero, 13, 11, 5, 6, 7), at(v, 7, 5, 2, 3, 4));
  EXPECT_EQ(crop(g, zero), v);
}

// <pad(x), y> = <x, crop(y)>: a perturbation's zero padding is the crop's transpose, so Born on the model's points
// and its adjoint stay each other's transpose. Both sums hold the same products (exact in double); only their order
// differs, so they agree to double rounding over the terms: 1e-12 of the sum of |products| is far above it.
TEST(Padding, ZeroPaddingIsTheCropsTranspose) {
  std::mt19937 rng(seis::test::test_seed());
  const Grid g = padded_grid({9, 8, 7}, 10.0, 5, Boundary::pml);
  const Subdomain model = whole_grid(9, 8, 7);
  const std::vector<float> x = random_values(model.points(), rng), y = random_values(whole_grid(g).points(), rng);
  const std::vector<float> padded = extend(g, whole_grid(g), model, x, Fill::zero), cropped = crop(g, y);
  double forward = 0, backward = 0, magnitude = 0;
  for (std::size_t p = 0; p < y.size(); ++p) forward += double(padded[p]) * y[p];
  for (std::size_t p = 0; p < x.size(); ++p)
    backward += double(x[p]) * cropped[p], magnitude += std::abs(x[p] * cropped[p]);
  EXPECT_NEAR(forward, backward, 1e-12 * magnitude);
}

// A decomposed run's parts each read only the model points they take, and extend and crop them as the whole grid's
// own parts: parts that lie wholly in the layer included.
TEST(Padding, PartsExtendAndCropAsTheWhole) {
  std::mt19937 rng(seis::test::test_seed());
  const auto [g, model, v, whole] = padded_model({10, 9, 8}, 4, rng);
  const std::vector<float> cropped_whole = crop(g, whole);
  for (const auto& [offset, size] :
       {std::pair{std::array{0, 0, 0}, std::array{18, 17, 3}}, std::pair{std::array{0, 5, 3}, std::array{18, 6, 9}},
        std::pair{std::array{0, 11, 12}, std::array{18, 6, 4}}}) {
    Subdomain part = whole_grid(g);
    for (int a = 0; a < 3; ++a) part.offset[a] = offset[std::size_t(a)], part.size[a] = size[std::size_t(a)];
    const Subdomain read = model_part_of(g, part);
    std::vector<float> values;
    for (int k = 0; k < read.size[2]; ++k)
      for (int j = 0; j < read.size[1]; ++j)
        for (int i = 0; i < read.size[0]; ++i)
          values.push_back(at(v, 10, 9, read.offset[0] + i, read.offset[1] + j, read.offset[2] + k));
    const std::vector<float> mine = extend(g, part, read, values, Fill::edge);
    Subdomain cropped;
    const std::vector<float> back = crop(g, part, mine, cropped);
    ASSERT_EQ(back.size(), cropped.points());
    std::size_t q = 0, c = 0;
    for (int k = 0; k < part.size[2]; ++k)
      for (int j = 0; j < part.size[1]; ++j)
        for (int i = 0; i < part.size[0]; ++i, ++q)
          ASSERT_EQ(mine[q], at(whole, 18, 17, part.offset[0] + i, part.offset[1] + j, part.offset[2] + k));
    for (int k = 0; k < cropped.size[2]; ++k)
      for (int j = 0; j < cropped.size[1]; ++j)
        for (int i = 0; i < cropped.size[0]; ++i, ++c)
          ASSERT_EQ(back[c],
                    at(cropped_whole, 10, 9, cropped.offset[0] + i, cropped.offset[1] + j, cropped.offset[2] + k));
  }
  // The first part lies wholly in the layer above the model: it holds none of it.
  Subdomain top = whole_grid(g);
  top.size[2] = 3;
  Subdomain cropped;
  EXPECT_TRUE(crop(g, top, std::vector<float>(top.points()), cropped).empty());
  EXPECT_EQ(cropped.points(), 0u);
}

// Positions are metres from the model's first point: on the padded grid a position's eight points and weights are
// those of the position moved by the padding on the grid without it.
TEST(Padding, PositionsAreTheModels) {
  const Grid g = padded_grid({20, 20, 20}, 10.0, 6, Boundary::pml);
  Grid unpadded = g;
  unpadded.pad_low = unpadded.pad_high = {0, 0, 0};
  for (const Point p : {Point{0, 0, 0}, Point{190, 190, 190}, Point{12.5, 47.5, 3.75}}) {
    const Stencil8 a = trilinear(g, p), b = trilinear(unpadded, {p.x + 60, p.y + 60, p.z + 60});
    for (int c = 0; c < 8; ++c) {
      EXPECT_EQ(a.i[c], b.i[c]);
      EXPECT_EQ(a.k[c], b.k[c]);
      EXPECT_EQ(a.w[c], b.w[c]);
    }
  }
  seis::wave::Setup s;
  static_cast<Grid&>(s) = g;
  s.sources = {{0, 0, 0}};
  s.receivers = {{190, 190, 190}};
  s.f0 = 10;
  validate_shot(s, s, 0.0);
  s.receivers = {{190.5, 0, 0}};
  seis::test::expect_error_mentioning([&] { validate_shot(s, s, 0.0); },
                                      "receiver 0 at (190.5, 0, 0) m is outside the model [0, 190]");
  s.receivers = {{-1, 0, 0}};
  seis::test::expect_error_mentioning([&] { validate_shot(s, s, 0.0); }, "outside the model");
}

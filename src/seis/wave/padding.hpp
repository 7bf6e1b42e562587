#pragma once
// The absorbing layer outside the model. A run's grid is the model's points with the layer's added around them, so
// that the whole model is physical: positions anywhere in it (its faces included) lie outside the layer, and the
// layer continues the model's edge values, so that a wave leaves the model into it without meeting a contrast.
// Models and perturbations come in on the model's points and are extended over the layer here; wavefields, images
// and illumination go out cropped back to them.
#include <array>
#include <vector>

#include "seis/wave/setup.hpp"
#include "seis/wave/subdomain.hpp"

namespace seis::wave {

// The grid of a model of `model_points` (x, y, z) at spacing h: with the pml boundary, `ndamp` points added on every
// face but a free top; with none, the model's points alone.
Grid padded_grid(const std::array<int, 3>& model_points, double h, int ndamp, Boundary boundary,
                 Top top = Top::absorbing);

// The model's points within grid g: offset pad_low, global the grid's size.
Subdomain model_region(const Grid& g);
// The model's size in points along x, y and z.
std::array<int, 3> model_points(const Grid& g);

// The model points that `part` of the grid takes its values from, in the model's indices (global: the model's size):
// the part's points clamped into the model.
Subdomain model_part_of(const Grid& g, const Subdomain& part);

// How a part's points outside the model are filled: a model's values continue its nearest edge point's (velocity,
// density); a perturbation is zero there (the transpose of crop, so that Born and its adjoint stay exact).
enum class Fill { edge, zero };
// Values on `part` of the grid from `values` on `read` (model_part_of(g, part), or the whole model).
std::vector<float> extend(const Grid& g, const Subdomain& part, const Subdomain& read, const std::vector<float>& values,
                          Fill fill);

// The model's points of values on `part` of the grid, and where they lie in the model (`cropped`, global the model's
// size; a part holding none of the model gives no values and size 0).
std::vector<float> crop(const Grid& g, const Subdomain& part, const std::vector<float>& values, Subdomain& cropped);
// The whole grid's values cropped to the whole model.
std::vector<float> crop(const Grid& g, const std::vector<float>& values);

}  // namespace seis::wave

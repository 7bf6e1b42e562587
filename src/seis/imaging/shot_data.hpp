#pragma once
// A shot's recorded traces made into what a reverse-time migration injects at the receivers, and the images it
// makes finished for output. Host-only; the model and images are x fastest, then y, then depth.
#include <string>
#include <vector>

#include "seis/wave/setup.hpp"

namespace seis::imaging {

// Zeroes each trace ([receiver][sample], `steps` samples dt apart) before the direct wave from `source` at
// `velocity` (m/s) has passed: samples earlier than distance / velocity + t0 + 1 / f0 (t0 = 1 / f0, the wavelet's
// delay, and its main lobes within another 1 / f0) are zero, then a half-cosine taper of 1 / (2 f0) to 1.
void mute_direct_wave(std::vector<float>& traces, const std::vector<wave::Point>& receivers, const wave::Point& source,
                      int steps, double dt, double velocity, double f0);

// The receivers' injected traces for the backward pass: minus the recorded traces' time derivative (central
// differences), in reverse order. Injected as recorded, the zero-lag correlation images a point scatterer as a
// zero-phase peak at its place (measured: docs/imaging.md); a reflector, a step in velocity, is that point's image
// integrated over depth, a lobe either side of the interface. For two-way travel d/dt is -v/2 d/dz, so the
// derivative makes the image a reflectivity: a step imaged as a peak at its interface, positive where the
// velocity increases downwards.
std::vector<float> backward_sources(const std::vector<float>& traces, std::size_t receivers, int steps, double dt);

// What the receivers inject for the exact adjoint (ImagingCondition::adjoint): the traces as recorded times h^3 (the
// engine's injection spreads a point source's 1 / h^3 where the recording it transposes weighs by the trilinear
// weights alone), in reverse order.
std::vector<float> adjoint_sources(const std::vector<float>& traces, std::size_t receivers, int steps, double h);

// image / (illumination + floor x its mean), point by point: the source-illumination normalisation. The floor
// follows the mean, not the largest value: the illumination peaks at the sources orders of magnitude above the
// rest, and a floor set by that peak would outweigh the illumination everywhere else.
std::vector<float> normalise_by_illumination(const std::vector<float>& image, const std::vector<float>& illumination,
                                             double floor = 1e-3);

// Minus the 7-point Laplacian (times h^2, so that the image keeps its units), zero at the grid's faces: the filter
// that takes the low-wavenumber backscatter of sharp velocity contrasts out of a cross-correlation image.
std::vector<float> laplacian_filter(const std::vector<float>& image, int nx, int ny, int nz);
// The filter a migration's normalised image takes: laplacian_filter, or none.
enum class ImageFilter { laplacian, none };
const char* to_string(ImageFilter f);
ImageFilter parse_image_filter(const std::string& text);  // refuses another name, listing both

// Zeroes the image above `depth` (m), then a half-cosine taper over `taper` metres to 1: the shallow zone where
// the correlation of the sources' and receivers' near fields outshines every reflector.
void mute_shallow(std::vector<float>& image, int nx, int ny, int nz, double h, double depth, double taper);

// A migration model: the slowness averaged over a box of about `length` metres (three passes of a moving average
// of 2 r + 1 points per axis, r = round(length / (2 sqrt(3) h)): nearly Gaussian, of standard deviation about
// length / 2), returned as velocity. length 0 returns the model as it is.
std::vector<float> smoothed_model(const std::vector<float>& velocity, int nx, int ny, int nz, double h, double length);

}  // namespace seis::imaging

#pragma once
// The source zone of an anisotropic medium. Where epsilon > delta the pseudo-acoustic step (tti.hpp) carries a slow
// S mode, and no source direction starts the P wave alone: a point source in such a medium leaves a diamond of S
// around itself ten times the P wave's amplitude. Where epsilon = delta the medium is elliptical and has no S mode,
// so the step takes epsilon to delta around each source, by the weight source_zone_weight, and the P wave leaves the
// zone through a taper too gradual to convert much of it (measured in perf/NOTES.md 146). The price: the P wave is
// slower across the axis inside the zone than the medium says.
#include <vector>

#include "seis/wave/setup.hpp"

namespace seis::wave {

// How far epsilon goes to delta at `distance` from a source whose zone has this radius (both in m): all the way
// within a third of the radius, then by a cosine taper to none at the radius.
double source_zone_weight(double distance, double radius);

// The zones of a shot's sources (their positions, and f0 for an automatic radius) in an anisotropic medium (its grid,
// velocity, epsilon and delta): a medium is not copied for each shot that moves them.
struct SourceZones {
  const Setup& medium;
  const Acquisition& shot;
};

// The radius (m) of the zone around `source`: the anisotropy's source_zone, or where that is automatic 1.5 P
// wavelengths along the axis, the velocity at the model point nearest the source over the shot's f0 (a whole
// model's: a part of a decomposed run takes a radius in metres, validate).
double source_zone_radius(const SourceZones& zones, const Point& source);

// The boxes of density_box's points that the zones reach, one a source that has a zone (global offsets, as
// density_box's): what a shot that moves the zones changes.
std::vector<Subdomain> source_zone_boxes(const SourceZones& zones);

// Applies the zones to `horizontal`, 1 + 2 epsilon at the points of `region` (a box of density_box's points, x
// fastest; tti_coefficient's component 0): 1 + 2 (epsilon - w (epsilon - delta)), w the largest weight of any source
// there.
void apply_source_zones(const SourceZones& zones, std::vector<float>& horizontal, const Subdomain& region);

}  // namespace seis::wave

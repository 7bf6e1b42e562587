#pragma once
// The pseudo-acoustic TTI step (Zhang, Zhang and Zhang 2011's self-adjoint form): two fields p and r with
//   p_tt = V^2 [(1 + 2 epsilon) H0 p + sqrt(1 + 2 delta) Hz r],
//   r_tt = V^2 [sqrt(1 + 2 delta) H0 p + Hz r],
// Hz the second derivative along the symmetry axis n (tilt from the vertical, azimuth from x; anisotropy.hpp) and H0
// the rest of the Laplacian. Discretised as
//   Hz f = -G^T G f,  G f = n . D f   (D the order-2R centred first derivatives; G^T g = -sum_b D_b (n_b g)),
//   H0 f = L f - Hz f,                (L the constant-density step's order-2R Laplacian),
// and leapfrog in time: f_next = 2 f - f_prev + V^2 dt^2 (...). Why this form:
// - Stable wherever epsilon >= delta, whatever the tilt does from point to point: -Hz = G^T G is symmetric and
//   semi-definite, and so is -H0 = -L - G^T G, because (n . D f)^2 <= |D f|^2 and the centred first derivative's
//   squared symbol stays under the second derivative's at every wavenumber (tested for R = 1..8). The step's
//   operator is then C diag(H0, Hz), C = V^2 [[1 + 2 epsilon, s], [s, 1]], s = sqrt(1 + 2 delta), pointwise
//   semi-definite exactly where epsilon >= delta: similar to C^1/2 diag(H0, Hz) C^1/2, its eigenvalues are real and
//   not positive, so leapfrog is stable under a dt bound. The non-self-adjoint form (n_a n_b applied after the
//   derivatives) grows where the tilt changes sharply (Fletcher, Du and Fowler 2009; Zhang et al. 2011).
// - Its transpose is the same operators the other way round (diag(H0, Hz) C): the exact adjoint for Born and
//   migration. The step x_(n+1) = g (2 x_n - k x_(n-1) + q C H x_n) (g = 1 / (1 + d), k = 1 - d, H = diag(H0, Hz))
//   has the transpose lambda_n = g (2 lambda_(n+1) - k lambda_(n+2)) + H C q g lambda_(n+1), which in
//   nu = q g lambda (a scalar a point: both fields alike) is nu_n = g (2 nu_(n+1) - k nu_(n+2) + q H C nu_(n+1)):
//   the transposed step computes psi = C nu point by point first, then the same two passes on psi with C taken as
//   the identity in the update. (In mu = C q g lambda the transpose would be this step itself, but C is singular
//   where epsilon = delta, in every source zone.)
// - Where epsilon = delta = 0, p and r started alike stay alike and p_tt = V^2 L p: the isotropic step, to rounding.
// - Its price: the S-wave artefact of pseudo-acoustic media (a diamond around a source where epsilon > delta), and a
//   second field. Sources add s to p for each 1 they add to r: (s, 1) spans the range of the parameter matrix where
//   epsilon = delta (the S mode, its null vector (1, -s), is then not excited at all: p - s r stays zero), and where
//   epsilon > delta it excites the S mode less than (1, 1) at every angle (epsilon 0.2, delta 0.1: at most 3.7% of
//   the P mode's amplitude in p against 9.4%, from the symbol's eigenvectors).
// Fields beyond the grid are zero (the constant-density step's zero walls, halo >= R), but above a free surface
// (free_surface.hpp): there p and r are the antisymmetric mirror of the planes below (the caller's, after each step)
// and the medium its mirror image, the axis reflected in the surface (n_z odd, the rest even), so that G f is odd
// too and n_z G f even: the step reads n_z and G f above the surface through the mirror, unnegated, and G f on the
// surface is zero (f is zero in its plane and n_z, odd, is zero on it; the medium's own axis there would give
// n_z df/dz, which the mirror image does not have: a surface that kept it ran 4% of |p| away from the image
// source). This is the discrete image source (TtiFreeSurfaceIsTheImageSource), and it keeps the operator symmetric.
// The absorbing layer is a damping term, f_tt + 2 d f_t = ..., centred in time:
//   f_next = (2 f - (1 - d dt) f_prev + V^2 dt^2 (...)) / (1 + d dt),
// d the PML's profile (pml.hpp), summed over the axes. The PML is not used here: in anisotropic media it grows where a
// wave's group and phase velocities point opposite ways across the layer (Becache, Fauqueux and Joly 2003), which a
// tilted axis brings about. The damping term only takes energy away, whatever the medium: with d a scalar per point
// the step's energy (TtiConservesItsEnergyUnderSharplyChangingTilts) falls each step by
//   (f_next - f_prev)^T M^-1 d dt (f_next - f_prev) >= 0,   M = V^2 dt^2 [[1 + 2 epsilon, s], [s, 1]]
// (tested to rounding). Where d = 0 the update is the undamped one bit for bit.
#include "seis/core/layout.hpp"
#include "seis/kernels/team_launch.hpp"  // Box

namespace seis::wave {

// What one TTI step reads and writes, in the field layout.
template <int R>
struct TtiStep {
  FieldLayout L;
  const float *p, *r;                  // the two fields at step n
  float *p_prev, *r_prev;              // n - 1 on entry, n + 1 on exit
  const float* q;                      // V^2 dt^2
  const float *horizontal, *coupling;  // 1 + 2 epsilon, sqrt(1 + 2 delta)
  const float* axis[3];                // the symmetry axis n
  const float* damping[3];             // d dt of the layer along x, y and z at each axis' interior index, 0 inside
  float *gp, *gr;                      // scratch: G p and G r (halo zero, never written)
  float w2[R + 1];                     // the second derivative's weights over h^2
  float w1[R];                         // the centred first derivative's over h
  bool free_top;                       // the top face a free surface
  // The transposed step's operand psi = C nu (p and r being nu), which its first pass writes, over the interior and
  // mirrored above a free surface, and the others read; null for the step itself, whose operand is p and r.
  float *cp = nullptr, *cr = nullptr;
};

// The step's two passes: G p and G r (reading p and r up to R beyond a point), then the operators and the update
// (reading G p, G r and the axis up to R beyond it). A decomposed part starts each pass's points near its shared faces
// once the halos it reads have arrived: p's and r's for the first, G's for the second (Propagator). The transposed
// step combines its fields into its operand first (pointwise), and its two passes read that in place of p and r.
enum class TtiPass { combine, derivatives, update };

// One pass over the points of `region` (in the part's interior) on `space`, each work item walking `walk` planes of
// a column (0: the backend's choice: a GPU's work items walk columns, a host's take rows). The bits depend neither on
// the walk (nor the rows) nor on how the part is cut into regions.
template <class ExecSpace, int R>
void tti_pass(const ExecSpace& space, const TtiStep<R>& step, TtiPass pass, const Box& region, int walk = 0);

// One TTI step of the points of `region`, the transposed step's where cp is set: its passes in order (a region is a
// whole part: each pass reads the previous one's results up to R beyond a point).
template <class ExecSpace, int R>
void tti_step(const ExecSpace& space, const TtiStep<R>& step, const Box& region, int walk = 0) {
  if (step.cp != nullptr) tti_pass(space, step, TtiPass::combine, region, walk);
  tti_pass(space, step, TtiPass::derivatives, region, walk);
  tti_pass(space, step, TtiPass::update, region, walk);
}

template <class ExecSpace, int R>
void tti_step(const ExecSpace& space, const TtiStep<R>& step, int walk = 0) {
  tti_step(space, step, interior_box(step.L), walk);
}

}  // namespace seis::wave

#pragma once
// seis-wave's parameters, from the command line (CLI11) and an optional TOML run file (toml++): flags override the
// run file, which overrides the defaults (the library's, wave::Setup's parts, where the library has one). Names and
// sizes are parsed once, here, into typed values. Host-only: no Kokkos, no device compiler.
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "seis/imaging/migration_plan.hpp"
#include "seis/imaging/shot_data.hpp"
#include "seis/wave/setup.hpp"
#include "seis/wave/subdomain.hpp"

namespace seis::io {

struct RunConfig {
  std::array<int, 3> grid{110, 110, 60};  // the model's points (the layer is added around them): N or NXxNYxNZ
  double spacing = wave::Grid{}.h;        // m
  std::string model = "layered";          // homogeneous:V | layered | FILE (.sgy/.segy: SEG-Y, else raw float32)
  std::string density;                    // empty: constant | gardner | FILE (kg/m^3, read as --model's files)
  // Thomsen's epsilon and delta, the symmetry axis' tilt from the vertical and its azimuth from x (degrees): each
  // empty (zero) | NUMBER | FILE (read as --model's files); any given, the TTI step.
  std::string epsilon, delta, tilt, azimuth;
  double source_zone = wave::automatic_source_zone;  // m: epsilon taken to delta around each source (0: none)
  std::vector<std::string> sources;                  // "X,Y,Z" in m; empty: one at the top centre
  std::string receivers;                             // "X0,Y0,Z0:X1,Y1,Z1:N"; empty: a line along x near the top
  double duration = 1.5;                             // s
  double f0 = wave::Acquisition{}.f0;                // Hz
  wave::WaveletKind wavelet = wave::Acquisition{}.wavelet;
  int radius = wave::Numerics{}.radius;
  wave::Boundary boundary = wave::Numerics{}.boundary;
  wave::Top top = wave::Numerics{}.top;
  int ndamp = wave::Grid{}.ndamp;  // the absorbing layer's points on each face, outside the model
  double layer_thickness = 0;      // m: the layer's thickness, rounded up to whole points (0: ndamp)
  wave::Strategy strategy = wave::Numerics{}.strategy;
  wave::Shape kernel = wave::Numerics{}.shape;  // seis/wave/shape.hpp
  bool list = false;                            // print the kernels and exit
  double cfl = wave::default_cfl;
  double dt = 0;  // s; 0: cfl times the stability bound
  std::string output = "seis-wave-out";
  int snapshot_every = 0;                  // steps; 0: one snapshot at the end
  int checkpoint_every = 0;                // steps; 0: none
  bool restart = false;                    // continue from OUTPUT/checkpoint.bin
  bool overwrite = false;                  // replace an earlier run's outputs in OUTPUT
  std::optional<std::array<int, 2>> tile;  // TXxTY: the GPU tile (the tile engine's vectors x rows, the shapes'
                                           // points x rows)
  int window = 0;                          // nw
  bool tune = false;                       // search the step's tile and nw first, cache the winner
  bool use_tuned = true;                   // without --tile/--nw: the cached winner of this run's key, if any
  std::string tuning_cache;                // empty: seis::io::default_tuning_cache_path()
  double progress_seconds = 2.0;
  bool quiet = false;
  bool benchmark = false;  // time steps only: no wavefield snapshot or slices at the end
  int shot = 1;            // the seismogram's field record number
  double trace_dt = 0;     // s: the seismogram's sample interval; 0: seis::wave::default_trace_interval
  std::string survey;      // a survey file: one simulation per shot (seis/io/survey.hpp)
  int ranks_per_shot = 1;  // MPI ranks that share a survey's shot
  std::optional<wave::Decomposition> decomposition;  // PXxPYxPZ (or PYxPZ) MPI ranks; none: the least halo surface
  std::string halo_transport = "auto";               // auto, direct, mpi, staged (seis::mpi::Transport)
  double mpi_timeout = 300;                          // s a rank waits for a halo before giving up
  std::string migrate;       // observed data to migrate: a SEG-Y gather, or with --survey a directory
  double smooth = 0;         // m: the migration model's smoothing length (0: as read)
  double mute_velocity = 0;  // m/s: mute the observed direct wave at this speed (0: no mute)
  int imaging_interval = 0;  // steps between imaging-condition applications (0: the wavelet's Nyquist)
  imaging::ImageFilter image_filter = imaging::ImageFilter::laplacian;
  imaging::ImagingCondition imaging_condition = imaging::ImagingCondition::correlation;
  std::string born;          // a velocity perturbation (m/s, read as --model's files): Born modelling of the run's shot
  std::string born_density;  // a density perturbation (kg/m^3, read as --model's files): Born modelling too
  bool density_image = false;  // migration by the exact adjoint: its image in the density too
  std::string invert;          // observed data to invert: a SEG-Y gather, or with --survey a directory (seis/inversion)
  int iterations = 10;         // inversion: iterates at most, in each band
  std::vector<double> bands;   // inversion: the bands' corner frequencies (Hz, rising); empty: the data as recorded
  double vmin = 0, vmax = 0;   // inversion: the velocity's bounds (m/s), both needed
  double density_min = 0, density_max = 0;  // inversion: the density inverted too, between these (kg/m^3)
  std::string misfit = "l2";                // inversion: l2 | normalised
  double precondition = 0.01;               // inversion: the illumination's stabilisation (0: no preconditioning)
  std::string mask;               // inversion: 0 held, 1 inverted, a point (a model file as --model's); empty: all
  double gradient_smoothing = 0;  // inversion: m, the Gaussian's standard deviation smoothing the gradient (0: none)
  double source_estimate = 0;     // inversion: s each way, each shot's least-squares source filter (0: none)
  double stack_every = 60;        // s between a migration's partial stacks written (0: after every shot)
  double image_top = -1;  // m: the image muted above (-1: the deepest source or receiver plus a wavelength; 0: none)
  double section_y = -1;  // m: the pictures' x-z sections at this y (-1: the (first) source's)
  double section_depth = -1;  // m: the pictures' x-y sections at this depth (-1: the source's; a migration: the
                              // depth of the image's largest |value|)
  struct GatherGain {         // the gather pictures' gain (the SEG-Y is raw): see parse_gather_gain
    enum class Kind { none, agc, t2 } kind = Kind::agc;
    double window = 0.25;
  } gather_gain;
  std::string run_file;                   // the TOML file read, if any
  std::map<std::string, int> file_lines;  // the run file's keys and their lines
  std::string command_line;

  // Born modelling: a velocity perturbation, a density perturbation or both.
  bool born_modelling() const { return !born.empty() || !born_density.empty(); }
  // An inversion of the density too (check_together: both density bounds then set, and a starting density).
  bool inverts_density() const { return !invert.empty() && density_max > 0; }
  // Whether the medium is anisotropic: any of Thomsen's parameters or the axis given.
  bool anisotropic() const { return !epsilon.empty() || !delta.empty() || !tilt.empty() || !azimuth.empty(); }
};

// Parses argv (Kokkos' own --kokkos-* options removed first). Returns false when the caller should exit 0 at once
// (--help, --version); throws seis::InvalidArgument for bad flags or a bad run file (with its line number).
// `version` is --version's line.
bool parse_command_line(int argc, char** argv, RunConfig& config, const std::string& version = "");

// Reads a TOML run file's keys (the long flag names without "--") into `config`; `set_on_command_line` names the
// keys that flags already set. Throws seis::InvalidArgument naming the file, line and key.
void read_run_file(const std::string& path, RunConfig& config, const std::vector<std::string>& set_on_command_line);
void read_run_text(const std::string& text, const std::string& name, RunConfig& config,
                   const std::vector<std::string>& set_on_command_line);

// A refusal's message ("--KEY ...") prefixed with the run file's line where that file set KEY: later checks (the
// model, the grid, the strategy) then name the line too. Other messages are returned as they are.
std::string located(const RunConfig& config, const std::string& message);

// "N" or "NXxNYxNZ"; "X,Y,Z"; "X0,Y0,Z0:X1,Y1,Z1:N" (N in 1..10^7 points, both ends included) or ...:NXxNY.
std::array<int, 3> parse_grid(const std::string& text);
std::array<int, 2> parse_tile(const std::string& text);  // "TXxTY", each in 1..2^20
void parse_point(const std::string& text, double& x, double& y, double& z);
// N points from (X0,Y0,Z0) to (X1,Y1,Z1), both ends included; with NXxNY, a patch of NY rows from Y0 to Y1, each of NX
// points from X0 to X1 (x fastest), Z going from Z0 to Z1 along x.
struct Line {
  double x0, y0, z0, x1, y1, z1;
  int count;
  int rows = 1;
};
Line parse_line(const std::string& text);

// --gather-gain: what the gather pictures apply before their colours (the SEG-Y stays raw). agc divides each sample
// by the RMS of its trace over a window centred on it (`window` seconds; 0.25 by default); t2 multiplies by t^2.
using GatherGain = RunConfig::GatherGain;
GatherGain parse_gather_gain(const std::string& text);

}  // namespace seis::io

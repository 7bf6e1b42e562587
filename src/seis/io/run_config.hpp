#pragma once
// seis-wave's parameters, from the command line (CLI11) and an optional TOML run file (toml++): flags override the
// run file, which overrides the defaults. Host-only: no Kokkos, no device compiler.
#include <array>
#include <map>
#include <string>
#include <vector>

namespace seis::io {

struct RunConfig {
  std::string grid = "150x150x100";  // N or NXxNYxNZ, points (the PML included)
  double spacing = 20.0;             // m
  std::string model = "layered";     // homogeneous:V | layered | FILE (.sgy/.segy: SEG-Y, else raw float32)
  std::vector<std::string> sources;  // "X,Y,Z" in m; empty: one at the top centre
  std::string receivers;             // "X0,Y0,Z0:X1,Y1,Z1:N"; empty: a line along x near the top
  double duration = 1.5;             // s
  double f0 = 7.0;                   // Hz: the default grid and model carry 2.5 f0 at R = 4 without visible dispersion
  std::string wavelet = "ricker";
  int radius = 4;
  std::string boundary = "pml";
  int ndamp = 20;
  std::string strategy;         // empty: the backend's default (wave::default_strategy)
  std::string kernel = "tile";  // seis/wave/shape.hpp
  bool list = false;            // print the kernels and exit
  double cfl = 0.8;
  double dt = 0;  // s; 0: cfl times the stability bound
  std::string output = "seis-wave-out";
  int snapshot_every = 0;    // steps; 0: one snapshot at the end
  int checkpoint_every = 0;  // steps; 0: none
  bool restart = false;      // continue from OUTPUT/checkpoint.bin
  bool overwrite = false;    // replace an earlier run's outputs in OUTPUT
  std::string tile;          // TXxTY: the GPU tile (the tile engine's vectors x rows, the shapes' points x rows)
  int window = 0;            // nw
  bool tune = false;         // search the step's tile and nw first, cache the winner
  bool use_tuned = true;     // without --tile/--nw: the cached winner of this run's key, if any
  std::string tuning_cache;  // empty: seis::io::default_tuning_cache_path()
  double progress_seconds = 2.0;
  bool quiet = false;
  bool benchmark = false;                  // time steps only: no wavefield snapshot or slices at the end
  int shot = 1;                            // the seismogram's field record number
  double trace_dt = 0;                     // s: the seismogram's sample interval; 0: seis::wave::default_trace_interval
  std::string survey;                      // a survey file: one simulation per shot (seis/io/survey.hpp)
  int ranks_per_shot = 1;                  // MPI ranks that share a survey's shot
  std::string decomposition;               // PXxPYxPZ (or PYxPZ) MPI ranks; empty: MPI_Dims_create chooses over y and z
  std::string halo_transport = "auto";     // auto, direct, mpi, staged (seis::mpi::Transport)
  double mpi_timeout = 300;                // s a rank waits for a halo before giving up
  std::string migrate;                     // observed data to migrate: a SEG-Y gather, or with --survey a directory
  double smooth = 0;                       // m: the migration model's smoothing length (0: as read)
  double mute_velocity = 0;                // m/s: mute the observed direct wave at this speed (0: no mute)
  int imaging_interval = 0;                // steps between imaging-condition applications (0: the wavelet's Nyquist)
  std::string image_filter = "laplacian";  // laplacian | none
  std::string imaging_condition = "correlation";  // correlation | adjoint (seis/imaging/migration_plan.hpp)
  std::string born;         // a velocity perturbation (m/s, read as --model's files): Born modelling of the run's shot
  double stack_every = 60;  // s between a migration's partial stacks written (0: after every shot)
  double image_top = -1;    // m: the image muted above (-1: the deepest source or receiver plus a wavelength; 0: none)
  std::string run_file;     // the TOML file read, if any
  std::map<std::string, int> file_lines;  // the run file's keys and their lines
  std::string command_line;
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

// "N" or "NXxNYxNZ"; "X,Y,Z"; "X0,Y0,Z0:X1,Y1,Z1:N" (N in 1..10^7 points, both ends included).
void parse_grid(const std::string& text, int& nx, int& ny, int& nz);
std::array<int, 2> parse_tile(const std::string& text);  // "TXxTY", each in 1..2^20
void parse_point(const std::string& text, double& x, double& y, double& z);
struct Line {
  double x0, y0, z0, x1, y1, z1;
  int count;
};
Line parse_line(const std::string& text);

}  // namespace seis::io

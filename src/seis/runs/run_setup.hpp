#pragma once
// A run's wave::Setup from its configuration (flags and run file): the grid, this rank's part of it and its part of
// the model, the time step, the shot (sources, receivers, wavelet) and launch options. Shared by single runs and
// the shots of a survey, so that a survey's shot is the run its flags would make, bit for bit.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "seis/io/run_config.hpp"
#include "seis/mpi/world.hpp"
#include "seis/wave/setup.hpp"
#include "seis/wave/subdomain.hpp"

namespace seis::runs {

// The velocity of a part of the model (its indices the model's, global its size); `bytes_read` gets the bytes read from
// a model file.
using ModelReader = std::function<std::vector<float>(const wave::Subdomain& part, std::size_t& bytes_read)>;

// Is --model a file (not one of the built-in models)?
bool model_is_file(const std::string& model);

// --model's values for `part` alone (no rank holds the whole model unless its part is the whole grid); a file's
// messages name it `what`.
std::vector<float> load_model(const std::string& model, const wave::Subdomain& part, std::size_t& bytes_read,
                              const std::string& what = "velocity model");

// The setup of the run `c` describes on this rank, on the model's grid with the absorbing layer added around it
// (wave::padded_grid): `decompose` gives its part of the grid, before anything large is allocated (a part too large
// for the device's `available_bytes`, or for the host's `host_available_bytes` with the fields there too where
// `host_fields`, is refused first), `model` the velocity of the model's points that part takes (wave::model_part_of;
// the layer continues the model's edge values), and `world` the whole model's largest velocity, which dt follows.
wave::Setup make_setup(const io::RunConfig& c, const std::function<wave::Subdomain(const wave::Setup&)>& decompose,
                       const ModelReader& model, const mpi::World& world, std::size_t available_bytes,
                       std::size_t host_available_bytes, bool host_fields, wave::Subdomain& part,
                       std::size_t& model_bytes_read);

// "NXxNYxNZ points (the grid MXxMYxMZ with the absorbing layer)", the model's points first: the runs' opening lines.
std::string grid_text(const wave::Setup& s);

// --decomposition, or the grid's default over `ranks` (wave::default_decomposition: the least halo surface).
wave::Decomposition decomposition_of(const io::RunConfig& c, int ranks);

// The shot of `c`: its sources (default: one at the top centre), receivers (default: a line along x near the top),
// wavelet and peak frequency.
void place_shot(const io::RunConfig& c, wave::Setup& s);

// A warning where the grid cannot carry the wavelet (empty where it can): fewer points per wavelength at its upper
// frequency in the model's slowest velocity (over every rank of `world`) than the scheme's order needs.
std::string dispersion_warning(const wave::Setup& s, double f0, const mpi::World& world);

// The parameters a checkpoint must share with the run that restores it (the model's values by their CRC-32), and
// the part of the grid it holds.
std::string fingerprint(const io::RunConfig& c, const wave::Setup& s, const mpi::Cartesian& grid);

// The fingerprint's lines of the grid, the numerics (dt, steps, boundary and its thickness, strategy, kernel) and
// the model (its name and `digest`), which a checkpoint, a survey's shot and a migration's stack all start with.
std::string grid_fingerprint(const io::RunConfig& c, const wave::Setup& s, const std::string& digest);

// The model's content as a fingerprint names it: a model file's CRC-32 (read whole), "built-in" for the others.
std::string model_digest(const io::RunConfig& c);
// What shapes the gather of the shot `s` holds (the grid, numerics, model by `digest`, wavelet, positions and the
// seismogram's interval), whatever the ranks and their decomposition: a survey's restart compares it with the
// shot's record (seis::io::fingerprint_difference).
std::string shot_fingerprint(const io::RunConfig& c, const wave::Setup& s, const std::string& digest);

}  // namespace seis::runs

#pragma once
// seis-wave's files, host-only (segyio, nlohmann-json): the seismogram as SEG-Y, wavefield
// snapshots as raw float32 with a JSON sidecar, checkpoints, and velocity models read from raw or SEG-Y files.
#include <cstdint>
#include <string>
#include <vector>

#include "seis/wave/setup.hpp"

namespace seis::io {

// One trace per receiver ([receiver][sample]), IEEE float32, sample interval dt (microseconds in the headers),
// source and receiver coordinates in metres (scalar -100: centimetres stored, as SEG-Y integers), receiver depth
// in the group elevation field (negative: below the surface), the offset in whole metres (bytes 37-40 take no
// scalar), negative where the receiver lies at smaller x than the source (at equal x, smaller y); `record` is the
// field record (shot) number. Written atomically (seis/io/atomic_file.hpp).
// Refuses, before a run, a seismogram that SEG-Y cannot hold: over 65535 samples per trace, or a sample interval
// outside 1..65535 us or not a whole number of microseconds.
void check_seismogram(int samples, double dt);
// The bytes of a seismogram of `traces` traces of `samples` samples: its headers and float32 samples.
std::uintmax_t seismogram_bytes(std::size_t traces, int samples);
void write_seismogram(const std::string& path, const std::vector<float>& traces, int samples, double dt,
                      const std::vector<wave::Point>& receivers, const wave::Point& source, int record = 1);

// Velocity from SEG-Y: nx * ny traces (x fastest) of nz samples each; from raw float32: nx * ny * nz values, x
// fastest. Missing and short files are refused, naming the path, the size found and the size needed. With a part,
// only its values are read (its traces' sample ranges, its rows' spans), x fastest; `bytes_read` (if given) gets
// the bytes of samples read. `what` names the file in the messages (a density model, a perturbation).
std::vector<float> read_velocity_segy(const std::string& path, int nx, int ny, int nz);
std::vector<float> read_velocity_raw(const std::string& path, int nx, int ny, int nz);
std::vector<float> read_velocity_segy(const std::string& path, const wave::Subdomain& part,
                                      std::size_t* bytes_read = nullptr, const std::string& what = "velocity model");
std::vector<float> read_velocity_raw(const std::string& path, const wave::Subdomain& part,
                                     std::size_t* bytes_read = nullptr, const std::string& what = "velocity model");

// Raw float32 (x fastest) of one part's interior and PATH.json: its dimensions and place in the whole grid,
// spacing, step, time, units.
void write_snapshot(const std::string& path, const std::vector<float>& values, const wave::Subdomain& part, double h,
                    int step, double time);

// Checkpoint: a header (magic, version, sizes, step, a CRC-32 of itself, of the parameters and of each array) and
// the state's arrays, written to PATH.tmp (created afresh, never through a link), flushed to disk,
// then renamed over PATH, so a crash leaves either the old or the new checkpoint, never half of one. The one it
// replaces is kept as previous_checkpoint(PATH): ranks killed while writing a round have a step in common.
// `fingerprint` names the run's parameters; restoring with other parameters is refused, naming those that differ;
// a damaged checkpoint is refused, naming what is damaged.
void write_checkpoint(const std::string& path, const wave::State& state, const std::string& fingerprint);
wave::State read_checkpoint(const std::string& path, const std::string& fingerprint);
std::string previous_checkpoint(const std::string& path);
// A write stopped between its two renames leaves PATH missing beside the previous checkpoint, and the new one
// complete in PATH.tmp (synced before the first rename): this finishes the rename, so that rank does not restart
// a round behind the others. Nothing to do otherwise, nor where PATH.tmp is shorter than its header says (a write
// stopped earlier, with PATH removed by hand).
void complete_checkpoint(const std::string& path);
// The step the checkpoint at PATH holds: -1 where there is none, or where it is damaged (short, or its header, its
// parameters or an array failing its CRC-32: `damage` then says which), so that a restart falls back to the
// previous generation. Refuses another run's checkpoint, naming the parameters that differ.
int checkpoint_step(const std::string& path, const std::string& fingerprint, std::string* damage = nullptr);

}  // namespace seis::io

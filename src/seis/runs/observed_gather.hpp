#pragma once
// Observed data as a migration or an inversion reads them: a shot's SEG-Y gather at the run's time step.
#include <string>
#include <vector>

#include "seis/wave/setup.hpp"

namespace seis::runs {

// The observed gather at `path` of the shot `s` holds, resampled to its dt, [receiver][step] for its steps, checked
// against where the run puts its source and receivers and against its duration and wavelet: each refusal names the
// file, the value and the limit. `use` names what reads it ("migration", "inversion").
std::vector<float> observed_traces(const std::string& path, const wave::Setup& s, const std::string& use);

}  // namespace seis::runs

#include "seis/runs/observed_gather.hpp"

#include <algorithm>

#include "seis/core/error.hpp"
#include "seis/io/gather.hpp"
#include "seis/wave/resample.hpp"

namespace seis::runs {

std::vector<float> observed_traces(const std::string& path, const wave::Setup& s, const std::string& use) {
  require(s.sources.size() == 1, "a shot of a ", use, " fires one source (a gather holds one source position), this ",
          "one ", s.sources.size());
  io::Gather g = io::read_gather(path);
  io::fit_gather(g, path, {s.receivers, s.sources[0], g.samples, g.dt});
  const double nyquist = 0.5 / wave::wavelet_upper_frequency(s.wavelet, s.f0);
  require(g.dt <= nyquist, path, ": sample interval ", g.dt, " s is coarser than the wavelet's Nyquist interval ",
          nyquist, " s (f0 ", s.f0, " Hz)");
  // A recording ends at its last whole sample interval within the run (wave::trace_samples): up to one short.
  const double span = (g.samples - 1) * g.dt, needed = (s.steps - 1) * s.dt;
  require(span + g.dt >= needed * (1 - 1e-9), path, ": ", g.samples, " samples of ", g.dt, " s span ", span, " s, the ",
          use, "'s ", s.steps, " steps of ", s.dt, " s need ", needed, " s (less one sample interval)");
  const std::size_t count = g.receivers.size();
  const std::vector<float> at_dt = wave::resample_traces(g.traces, int(count), g.samples, g.dt, s.dt);
  const std::size_t have = at_dt.size() / std::max<std::size_t>(count, 1);
  std::vector<float> out(count * std::size_t(s.steps), 0.0f);
  for (std::size_t r = 0; r < count; ++r)
    for (std::size_t n = 0; n < std::min(have, std::size_t(s.steps)); ++n)
      out[r * std::size_t(s.steps) + n] = at_dt[r * have + n];
  return out;
}

}  // namespace seis::runs

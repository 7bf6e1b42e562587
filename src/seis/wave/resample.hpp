#pragma once
// Traces from the time step's grid to the output interval: SEG-Y holds a sample interval in whole microseconds,
// the time step is whatever the stability bound gives (1610.15 us), and a header that rounds it lets the traces
// drift against their times. So the traces are resampled, band-limited, to an interval the format holds.
#include <vector>

namespace seis::wave {

// The round interval a run's traces default to: the largest 1, 2 or 5 x 10^k s that is not above dt (at least
// 1 us): 1 ms for dt = 1.61 ms. Never coarser than dt, so that nothing recorded is filtered away.
double default_trace_interval(double dt);

// Samples of a trace of `steps` samples at `dt` on the grid of `trace_dt` (both ends included where they fall).
int trace_samples(int steps, double dt, double trace_dt);

// Each of `count` traces ([trace][sample], `samples` each, at dt) resampled to trace_samples(samples, dt, trace_dt)
// samples at trace_dt: a Kaiser-windowed sinc (beta 8.6, sidelobes below -80 dB) spanning 16 samples of the
// slower grid on each side, low-passed at the output's Nyquist frequency where trace_dt > dt; before the first
// sample and after the last a trace holds its end values (zeros there would be a step the kernel rings on).
// trace_dt == dt returns the traces as they are.
std::vector<float> resample_traces(const std::vector<float>& traces, int count, int samples, double dt,
                                   double trace_dt);

}  // namespace seis::wave

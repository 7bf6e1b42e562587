#include "seis/imaging/migration_plan.hpp"

#include <algorithm>
#include <cmath>

#include "seis/core/error.hpp"
#include "seis/core/layout.hpp"
#include "seis/wave/pml.hpp"

namespace seis::imaging {

const char* to_string(ImagingCondition c) { return c == ImagingCondition::adjoint ? "adjoint" : "correlation"; }

ImagingCondition parse_imaging_condition(const std::string& text) {
  for (ImagingCondition c : {ImagingCondition::correlation, ImagingCondition::adjoint})
    if (text == to_string(c)) return c;
  fail("unknown imaging condition '", text, "' (correlation, adjoint)");
}

void require_inner_receivers(const wave::Setup& s, const std::vector<wave::Point>& receivers) {
  if (s.boundary != wave::Boundary::pml) return;
  const wave::PmlGeometry pml = wave::make_pml_geometry(s, wave::whole_grid(s));
  for (std::size_t r = 0; r < receivers.size(); ++r) {
    const wave::Stencil8 st = wave::trilinear(s, receivers[r]);
    for (int c = 0; c < 8; ++c) {
      const auto& p = receivers[r];
      require(st.w[c] == 0.0 || pml.is_inner(st.i[c], st.j[c], st.k[c]),
              "the exact adjoint injects at receivers inside the PML's inner region: receiver ", r, " at (", p.x, ", ",
              p.y, ", ", p.z, ") m reaches the layer (", s.ndamp, " points from each face)");
    }
  }
}

int default_imaging_interval(const wave::Setup& s) {
  const double nyquist_interval = 0.5 / (wave::wavelet_upper_frequency(s.wavelet, s.f0) * s.dt);
  return std::max(1, int(std::floor(nyquist_interval)));
}

MigrationPlan plan_migration(const wave::Setup& s, const MigrationOptions& options, std::size_t available_bytes) {
  require(s.steps >= 1, "a migration needs at least one step, the run has ", s.steps);
  require(options.interval >= 0 && options.interval <= s.steps, "imaging interval ", options.interval,
          " steps must be in 0..", s.steps, " (0: the wavelet's Nyquist)");
  require(!options.density_image || options.condition == ImagingCondition::adjoint,
          "the density image is the exact adjoint's (imaging condition adjoint), not ", to_string(options.condition));
  require(!options.density_image || wave::variable_density(s),
          "the density image needs a density that varies (the density form of the step)");
  MigrationPlan p;
  p.condition = options.condition;
  p.density_image = options.density_image;
  p.interval = options.interval > 0 ? options.interval : std::min(default_imaging_interval(s), s.steps);
  require(options.segment >= 0 && options.segment % p.interval == 0, "segment ", options.segment,
          " steps must be a multiple of the imaging interval ", p.interval, " (0: the least memory)");
  const FieldLayout layout = make_layout(s.nx, s.ny, s.nz, wave::halo_depth(s));
  const bool tti = wave::tti_medium(s), adjoint = options.condition == ImagingCondition::adjoint;
  // A kept state: each field at two steps and the layer's memory (none in the TTI step, whose layer is a damping
  // term). The adjoint keeps the TTI step's Born weights of both its fields, the density image the source wavefield
  // beside the weight.
  p.state_bytes =
      (2 * std::size_t(wave::wavefield_count(s)) * layout.size + wave::layer_phi_floats(s, wave::whole_grid(s))) *
      sizeof(float);
  p.snapshot_bytes = (options.density_image || (tti && adjoint) ? 2 : 1) * layout.size * sizeof(float);
  // The source simulation records nothing; the receiver simulation injects a trace per receiver and records nothing.
  wave::Setup source = s, receiver = s;
  source.receivers.clear();
  receiver.receivers.clear();
  const std::size_t receiver_traces = s.receivers.size() * std::size_t(s.steps) * sizeof(float);
  // The image and illumination; the adjoint's layer terms add two fields (AdjointLayer), the density image one; the
  // TTI step's transpose on the adjoint's receiver side its operand's two (its layer is in the step).
  const int fields = 2 + (adjoint ? 2 : 0) + (options.density_image ? 1 : 0);
  p.simulation_bytes = wave::required_bytes(source) + wave::required_bytes(receiver) + receiver_traces +
                       std::size_t(fields) * (layout.size + alignment_floats) * sizeof(float);
  const auto total = [&](int segment) {
    // The last segment's wavefields are kept as the forward pass makes them: no state for it.
    const int states = (s.steps + segment - 1) / segment - 1, snapshots = segment / p.interval;
    return p.simulation_bytes + std::size_t(states) * p.state_bytes + std::size_t(snapshots) * p.snapshot_bytes;
  };
  if (options.segment > 0) {
    p.segment = options.segment;
  } else {
    p.segment = p.interval;
    for (int segment = p.interval; segment < s.steps + p.interval; segment += p.interval)
      if (total(segment) < total(p.segment)) p.segment = segment;
  }
  p.states = (s.steps + p.segment - 1) / p.segment - 1;
  p.snapshots = p.segment / p.interval;
  p.total_bytes = total(p.segment);
  require(p.total_bytes <= available_bytes, "the migration of a ", s.nx, "x", s.ny, "x", s.nz, " shot of ", s.steps,
          " steps needs ", p.total_bytes / 1048576.0, " MiB of device memory (", p.states, " kept states of ",
          p.state_bytes / 1048576.0, " MiB, ", p.snapshots, " source wavefields of ", p.snapshot_bytes / 1048576.0,
          " MiB, the two simulations and the image ", p.simulation_bytes / 1048576.0, " MiB), ",
          available_bytes / 1048576.0, " MiB are available");
  return p;
}

}  // namespace seis::imaging

#pragma once
// Acoustic's engine on one Kokkos execution space, and the table of the build's backends that makes them
// (acoustic_engines.cpp, generated from SEIS_BACKENDS).
#include <memory>
#include <string>
#include <vector>

#include "seis/imaging/born.hpp"
#include "seis/imaging/migration.hpp"
#include "seis/operators/acoustic.hpp"
#include "seis/wave/simulation.hpp"

namespace seis::operators {

template <class ExecSpace>
class EngineOn final : public Acoustic::Engine {
 public:
  explicit EngineOn(std::size_t available_bytes) : available_bytes_(available_bytes) {}

  std::vector<float> forward(const wave::Setup& s) const override {
    wave::Simulation<ExecSpace> simulation(s);
    simulation.advance(s.steps);
    return simulation.traces();
  }
  std::vector<float> born(const wave::Setup& s, const std::vector<float>& dq,
                          const std::vector<float>& drho) const override {
    imaging::Born<ExecSpace> born(s, available_bytes_);
    return born.model(dq, drho);
  }
  // Imaging every step: the transpose of Born's scattering, which acts at every step.
  Acoustic::Gradient adjoint(const wave::Setup& s, const std::vector<float>& injected,
                             GradientParts parts) const override {
    imaging::MigrationOptions options{1, 0, imaging::ImagingCondition::adjoint};
    options.density_image = parts.density;
    imaging::Migration<ExecSpace> transpose(s, options, available_bytes_);
    transpose.migrate(s.sources, s.wavelet, s.f0, s.receivers, injected);
    return {transpose.image(), parts.density ? transpose.density_image() : std::vector<float>{},
            parts.illumination ? transpose.illumination() : std::vector<float>{}};
  }
  Acoustic::Image rtm(const wave::Setup& s, const std::vector<float>& injected) const override {
    imaging::Migration<ExecSpace> migration(s, {}, available_bytes_);
    migration.migrate(s.sources, s.wavelet, s.f0, s.receivers, injected);
    return {migration.image(), migration.illumination()};
  }
  std::vector<std::vector<float>> survey(const wave::Setup& s, const std::vector<wave::Acquisition>& shots,
                                         const Acoustic::Progress& progress) const override {
    std::vector<std::vector<float>> data;
    wave::Simulation<ExecSpace> simulation(s);
    for (std::size_t n = 0; n < shots.size(); ++n) {
      if (n > 0) simulation.new_shot(shots[n]);
      simulation.advance(s.steps);
      data.push_back(simulation.traces());
      if (progress) progress(n + 1, shots.size());
    }
    return data;
  }
  void migrate(const wave::Setup& s, const std::vector<wave::Acquisition>& shots,
               const std::vector<std::vector<float>>& injected, Acoustic::Image& stack,
               const Acoustic::Progress& progress) const override {
    const auto add = [](std::vector<float>& sum, const std::vector<float>& one) {
      if (sum.empty()) return void(sum = one);
      for (std::size_t p = 0; p < sum.size(); ++p) sum[p] += one[p];
    };
    imaging::Migration<ExecSpace> migration(s, {}, available_bytes_);
    for (std::size_t n = 0; n < shots.size(); ++n) {
      const wave::Acquisition& shot = shots[n];
      migration.clear();
      migration.migrate(shot.sources, shot.wavelet, shot.f0, shot.receivers, injected[n]);
      add(stack.image, migration.image());
      add(stack.illumination, migration.illumination());
      if (progress) progress(n + 1, shots.size());
    }
  }

 private:
  std::size_t available_bytes_;
};

// The engine of the backend named (empty: the default); refuses a name the build lacks, listing those it has.
std::unique_ptr<Acoustic::Engine> make_engine(const std::string& backend, std::size_t available_bytes,
                                              std::string& chosen);

}  // namespace seis::operators

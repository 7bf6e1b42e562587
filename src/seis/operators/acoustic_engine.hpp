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
  std::vector<float> born(const wave::Setup& s, const std::vector<float>& dq) const override {
    imaging::Born<ExecSpace> born(s, available_bytes_);
    return born.model(dq);
  }
  // Imaging every step: the transpose of Born's scattering, which acts at every step.
  std::vector<float> adjoint(const wave::Setup& s, const std::vector<float>& injected) const override {
    imaging::Migration<ExecSpace> transpose(s, {1, 0, imaging::ImagingCondition::adjoint}, available_bytes_);
    transpose.migrate(s.sources, s.wavelet, s.f0, s.receivers, injected);
    return transpose.image();
  }
  Acoustic::Image rtm(const wave::Setup& s, const std::vector<float>& injected) const override {
    imaging::Migration<ExecSpace> migration(s, {}, available_bytes_);
    migration.migrate(s.sources, s.wavelet, s.f0, s.receivers, injected);
    return {migration.image(), migration.illumination()};
  }

 private:
  std::size_t available_bytes_;
};

// The engine of the backend named (empty: the default); refuses a name the build lacks, listing those it has.
std::unique_ptr<Acoustic::Engine> make_engine(const std::string& backend, std::size_t available_bytes,
                                              std::string& chosen);

}  // namespace seis::operators

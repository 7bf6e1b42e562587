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
    wave::Simulation<ExecSpace>& simulation = modelling(s);
    simulation.advance(s.steps);
    return simulation.traces();
  }
  std::vector<float> born(const wave::Setup& s, const std::vector<float>& dq,
                          const std::vector<float>& drho) const override {
    release();
    imaging::Born<ExecSpace> born(s, available_bytes_);
    return born.model(dq, drho);
  }
  // Imaging every step: the transpose of Born's scattering, which acts at every step.
  Acoustic::Gradient adjoint(const wave::Setup& s, const Acoustic::Engine::Injection& injection,
                             GradientParts parts) const override {
    imaging::Migration<ExecSpace>& transpose = adjoint_engine(s, parts.density);
    transpose.clear(parts.illumination);
    const std::vector<float> modelled = transpose.forward(s.sources, s.wavelet, s.f0, s.receivers);
    transpose.backward(injection(modelled));
    return {transpose.image(), parts.density ? transpose.density_image() : std::vector<float>{},
            parts.illumination ? transpose.illumination() : std::vector<float>{}};
  }
  Acoustic::Image rtm(const wave::Setup& s, const std::vector<float>& injected) const override {
    release();
    imaging::Migration<ExecSpace> migration(s, {}, available_bytes_);
    migration.migrate(s.sources, s.wavelet, s.f0, s.receivers, injected);
    return {migration.image(), migration.illumination()};
  }
  std::vector<std::vector<float>> survey(const wave::Setup& s, const std::vector<wave::Acquisition>& shots,
                                         const Acoustic::Progress& progress) const override {
    std::vector<std::vector<float>> data;
    for (std::size_t n = 0; n < shots.size(); ++n) {
      data.push_back(forward(n == 0 ? s : with_shot(s, shots[n])));
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
    release();
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
  void set_model(const wave::Setup& s) const override {
    if (modelling_) modelling_->set_model(s);
    if (transpose_) transpose_->set_model(s);
  }
  void release() const override {
    modelling_.reset();
    transpose_.reset();
  }

 private:
  std::size_t available_bytes_;
  // The engine of the last forward or gradient call, kept for the next (a survey's shots, an inversion's): its
  // memory planned, allocated and filled once. One at a time, so that a call has the memory it had alone.
  mutable std::unique_ptr<wave::Simulation<ExecSpace>> modelling_;
  mutable std::unique_ptr<imaging::Migration<ExecSpace>> transpose_;
  mutable bool transpose_density_ = false;
  mutable std::size_t transpose_receivers_ = 0;  // the most receivers its plan holds

  static wave::Setup with_shot(const wave::Setup& s, const wave::Acquisition& shot) {
    wave::Setup out = s;
    static_cast<wave::Acquisition&>(out) = shot;
    return out;
  }
  // new_shot computes bitwise what a new Simulation of the shot would.
  wave::Simulation<ExecSpace>& modelling(const wave::Setup& s) const {
    if (!modelling_) {
      release();
      modelling_ = std::make_unique<wave::Simulation<ExecSpace>>(s);
    } else {
      modelling_->new_shot(s);
    }
    return *modelling_;
  }
  imaging::Migration<ExecSpace>& adjoint_engine(const wave::Setup& s, bool density) const {
    if (!transpose_ || transpose_density_ != density || s.receivers.size() > transpose_receivers_) {
      release();
      imaging::MigrationOptions options{1, 0, imaging::ImagingCondition::adjoint};
      options.density_image = density;
      transpose_ = std::make_unique<imaging::Migration<ExecSpace>>(s, options, available_bytes_);
      transpose_density_ = density, transpose_receivers_ = s.receivers.size();
    }
    return *transpose_;
  }
};

// The engine of the backend named (empty: the default); refuses a name the build lacks, listing those it has.
std::unique_ptr<Acoustic::Engine> make_engine(const std::string& backend, std::size_t available_bytes,
                                              std::string& chosen);

}  // namespace seis::operators

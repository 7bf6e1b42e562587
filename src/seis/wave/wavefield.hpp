#pragma once
// The wavefield a simulation steps: u at steps n and n - 1 and the PML's memory phi (the 3.5D shapes' fused two
// steps also write spares of each; the TTI step its second field r at both steps), and the states it keeps on the
// device to return to (a migration's checkpoints). What the step reads and writes; no kernel of its own.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "seis/core/error.hpp"
#include "seis/core/field.hpp"

namespace seis::wave {

template <class Memory>
struct Wavefield {
  using Floats = Kokkos::View<float*, Memory>;
  Field<Memory> u, u_prev;
  Field<Memory> r, r_prev;  // the TTI step's second field (tti.hpp), else none
  Floats phi;
  Field<Memory> spare_1, spare_2;  // steps n + 1 and n + 2 of the fused two steps
  Floats phi_spare;
  std::size_t phi_stored = 0;  // phi's floats in use (PmlGeometry::stored; at least one is allocated)

  Wavefield() = default;
  Wavefield(const FieldLayout& layout, std::size_t stored, bool two_steps, bool two_fields)
      : u("seis::wave::u", layout),
        u_prev("seis::wave::u_prev", layout),
        phi("seis::wave::phi", std::max<std::size_t>(stored, 1)),
        phi_stored(stored) {
    if (two_fields) {
      r = Field<Memory>("seis::wave::r", layout);
      r_prev = Field<Memory>("seis::wave::r_prev", layout);
    }
    if (two_steps) {
      spare_1 = Field<Memory>("seis::wave::u spare", layout);
      spare_2 = Field<Memory>("seis::wave::u spare", layout);
      phi_spare = Floats("seis::wave::phi spare", phi.size());
    }
    zero();
  }

  // Every field zero, halo and padding included (whole vectors read them).
  void zero() {
    for (auto* field : {&u, &u_prev, &r, &r_prev, &spare_1, &spare_2})
      if (field->span().size() > 0) Kokkos::deep_copy(field->span(), 0.0f);
    for (auto* floats : {&phi, &phi_spare})
      if (floats->size() > 0) Kokkos::deep_copy(*floats, 0.0f);
  }
  // After a step: u_{n+1} (written over u_prev) becomes u, and r_{n+1} r.
  void next_step() {
    std::swap(u, u_prev);
    std::swap(r, r_prev);
  }
  // The fields at step n (previous = false) or n - 1, one after the other: u, then r where the step has it.
  std::vector<const Field<Memory>*> fields(bool previous) const {
    if (r.span().size() == 0) return {previous ? &u_prev : &u};
    return previous ? std::vector<const Field<Memory>*>{&u_prev, &r_prev} : std::vector<const Field<Memory>*>{&u, &r};
  }
  // After the fused two steps: steps n + 1 and n + 2 become u_prev and u, the fields of n - 1 and n the spares.
  void next_two_steps() {
    std::swap(u_prev, spare_1);
    std::swap(u, spare_2);
    std::swap(phi, phi_spare);
  }
};

// States kept in device memory (u, u_prev, r and r_prev where the step has them, phi and the traces recorded so far,
// and the step), for a driver that returns to earlier steps many times.
template <class Memory>
class KeptStates {
 public:
  using Floats = Kokkos::View<float*, Memory>;

  template <class ExecSpace>
  int keep(const ExecSpace& exec, const Wavefield<Memory>& w, const Floats& traces, std::size_t trace_count, int step) {
    const std::size_t size = w.u.layout().size, r_size = w.r.span().size();
    Kept k{Floats("seis::wave::kept u", size),
           Floats("seis::wave::kept u_prev", size),
           Floats("seis::wave::kept r", r_size),
           Floats("seis::wave::kept r_prev", r_size),
           Floats("seis::wave::kept phi", w.phi_stored),
           Floats("seis::wave::kept traces", trace_count),
           step};
    Kokkos::deep_copy(exec, k.u, w.u.span());
    Kokkos::deep_copy(exec, k.u_prev, w.u_prev.span());
    Kokkos::deep_copy(exec, k.r, w.r.span());
    Kokkos::deep_copy(exec, k.r_prev, w.r_prev.span());
    Kokkos::deep_copy(exec, k.phi, Kokkos::subview(w.phi, std::make_pair(std::size_t(0), w.phi_stored)));
    Kokkos::deep_copy(exec, k.traces, Kokkos::subview(traces, std::make_pair(std::size_t(0), trace_count)));
    kept_.push_back(k);
    return int(kept_.size()) - 1;
  }

  // The wavefield and traces as kept in `slot`; returns its step.
  template <class ExecSpace>
  int return_to(const ExecSpace& exec, int slot, Wavefield<Memory>& w, const Floats& traces) const {
    require(slot >= 0 && std::size_t(slot) < kept_.size(), "kept state ", slot, " does not exist (", kept_.size(),
            " kept)");
    const Kept& k = kept_[std::size_t(slot)];
    Kokkos::deep_copy(exec, w.u.span(), k.u);
    Kokkos::deep_copy(exec, w.u_prev.span(), k.u_prev);
    Kokkos::deep_copy(exec, w.r.span(), k.r);
    Kokkos::deep_copy(exec, w.r_prev.span(), k.r_prev);
    Kokkos::deep_copy(exec, Kokkos::subview(w.phi, std::make_pair(std::size_t(0), k.phi.size())), k.phi);
    Kokkos::deep_copy(exec, Kokkos::subview(traces, std::make_pair(std::size_t(0), k.traces.size())), k.traces);
    return k.step;
  }

  void clear() { kept_.clear(); }

 private:
  struct Kept {
    Floats u, u_prev, r, r_prev, phi, traces;
    int step = 0;
  };
  std::vector<Kept> kept_;
};

}  // namespace seis::wave

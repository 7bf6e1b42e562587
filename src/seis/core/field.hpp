#pragma once
// A 3D field with a halo, on a Kokkos memory space, in the padded layout of layout.hpp. Kernels are float32;
// double fields serve the reference's convergence tests. The layout counts floats, so a double field allocates
// twice as many bytes per padded point as a float field.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "seis/core/error.hpp"
#include "seis/core/layout.hpp"

namespace seis {

template <class MemorySpace, class Value = float>
class Field {
 public:
  using memory_space = MemorySpace;
  using value_type = Value;
  using Span = Kokkos::View<Value*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  Field() = default;
  Field(const std::string& label, const FieldLayout& layout)
      : layout_(layout),
        storage_(Kokkos::view_alloc(Kokkos::WithoutInitializing, label),
                 layout.size + alignment_bytes / sizeof(Value)) {
    // Kokkos aligns allocations to 64 bytes only; the layout's row alignment (256 bytes on GPUs) needs the base
    // aligned too.
    const auto address = reinterpret_cast<std::uintptr_t>(storage_.data());
    const auto misalignment = static_cast<std::size_t>(address % alignment_bytes);
    base_ = storage_.data() + (misalignment == 0 ? 0 : (alignment_bytes - misalignment) / sizeof(Value));
  }

  const FieldLayout& layout() const { return layout_; }
  Value* data() const { return base_; }
  // Every float of the layout, halo and padding included.
  Span span() const { return Span(base_, layout_.size); }

 private:
  FieldLayout layout_{};
  Kokkos::View<Value*, MemorySpace> storage_;
  Value* base_ = nullptr;
};

template <class DstSpace, class SrcSpace, class Value>
void deep_copy(const Field<DstSpace, Value>& dst, const Field<SrcSpace, Value>& src) {
  require(dst.layout() == src.layout(), "deep_copy: field layouts differ (", dst.layout().nx, "x", dst.layout().ny, "x",
          dst.layout().nz, " halo ", dst.layout().halo, " vs ", src.layout().nx, "x", src.layout().ny, "x",
          src.layout().nz, " halo ", src.layout().halo, ")");
  Kokkos::deep_copy(dst.span(), src.span());
}

template <class MemorySpace>
Field<Kokkos::HostSpace> to_host(const Field<MemorySpace>& field) {
  Field<Kokkos::HostSpace> host("host copy", field.layout());
  deep_copy(host, field);
  return host;
}

}  // namespace seis

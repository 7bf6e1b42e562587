#pragma once
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "seis/core/error.hpp"

namespace seis {

// n / d for 0 <= n < 2^31 by a multiply and a shift (Granlund and Montgomery: magic = ceil(2^(31 + l) / d),
// 2^l >= d), d fixed per launch: a division by a run-time tile size costs about 20 instructions on GPUs, and the
// wave step's 3D blocking kernels decode every point's place in its block.
struct DivMod {
  int quotient, remainder;
};
struct FastDivisor {
  std::uint32_t magic = 0x80000000u;
  int shift = 31;
  int divisor = 1;
  FastDivisor() = default;
  explicit FastDivisor(int d) : divisor(d) {
    require(d >= 1, "FastDivisor: divisor ", d, " must be >= 1");
    int l = 0;
    while ((std::int64_t(1) << l) < d) ++l;
    magic = static_cast<std::uint32_t>(((std::uint64_t(1) << (31 + l)) + std::uint64_t(d) - 1) / std::uint64_t(d));
    shift = 31 + l;
  }
  KOKKOS_FORCEINLINE_FUNCTION int divide(int n) const {
    return static_cast<int>((std::uint64_t(static_cast<std::uint32_t>(n)) * magic) >> shift);
  }
  KOKKOS_FORCEINLINE_FUNCTION DivMod split(int n) const {
    const int q = divide(n);
    return {q, n - q * divisor};
  }
};

// {n / d, n % d} (n >= 0) by Constant where it is known when compiling (> 0), so that it folds into shifts and
// masks, else by d (a shape's size given at run time).
template <int Constant>
KOKKOS_FORCEINLINE_FUNCTION DivMod split(int n, const FastDivisor& d) {
  if constexpr (Constant > 0)
    return {int(unsigned(n) / unsigned(Constant)), int(unsigned(n) % unsigned(Constant))};
  else
    return d.split(n);
}

}  // namespace seis

#pragma once
// Vector loads/stores and nontemporal stores, mapped to each backend's native instructions from one source.
//   CUDA device: float2/float4 (LDG.64/.128), __stcs (st.global.cs) for streaming stores.
//   HIP device:  clang ext_vector_type in the global address space (global_load_dwordx2/x4),
//                __builtin_nontemporal_store (glc slc); team scratch through the LDS address space (ds_read_b128).
//   Host:        an aligned array the compiler vectorises; streaming stores are movntps on x86 (AVX/SSE packs),
//                plain stores elsewhere; prefetch_l2 for the host row engine.
// Pointers must be aligned to the access width (4 * N bytes); the field layout guarantees that for interior rows.
// load_pack/store_pack are for global memory, load_scratch/store_scratch for team scratch.
#include <cstdint>

#include "seis/core/compat.hpp"

// Host builds on x86 stream through SSE/AVX intrinsics; GPU builds' host passes (nvcc, hipcc) never need them.
#if !defined(__CUDACC__) && !defined(__HIPCC__) && defined(__SSE__)
#define SEIS_HOST_X86_STREAMING 1
#include <immintrin.h>
#endif

namespace seis {

// N floats held in registers, loaded and stored as one N*32-bit access.
template <int N>
struct Pack {
  static_assert(N == 1 || N == 2 || N == 4 || N == 8, "vector width must be 1, 2, 4 or 8 floats (8: host chunks)");
  float lane[N];
};

#if defined(SEIS_DEVICE_CUDA)
namespace detail {
template <int N>
struct Native;
template <>
struct Native<1> {
  using type = float;
};
template <>
struct Native<2> {
  using type = float2;
};
template <>
struct Native<4> {
  using type = float4;
};
KOKKOS_FORCEINLINE_FUNCTION Pack<1> unpack(float v) { return {{v}}; }
KOKKOS_FORCEINLINE_FUNCTION Pack<2> unpack(float2 v) { return {{v.x, v.y}}; }
KOKKOS_FORCEINLINE_FUNCTION Pack<4> unpack(float4 v) { return {{v.x, v.y, v.z, v.w}}; }
KOKKOS_FORCEINLINE_FUNCTION float pack(const Pack<1>& p) { return p.lane[0]; }
KOKKOS_FORCEINLINE_FUNCTION float2 pack(const Pack<2>& p) { return make_float2(p.lane[0], p.lane[1]); }
KOKKOS_FORCEINLINE_FUNCTION float4 pack(const Pack<4>& p) {
  return make_float4(p.lane[0], p.lane[1], p.lane[2], p.lane[3]);
}
}  // namespace detail

template <int N>
KOKKOS_FORCEINLINE_FUNCTION Pack<N> load_pack(const float* p) {
  return detail::unpack(*reinterpret_cast<const typename detail::Native<N>::type*>(p));
}
template <int N>
KOKKOS_FORCEINLINE_FUNCTION void store_pack(float* p, const Pack<N>& v) {
  *reinterpret_cast<typename detail::Native<N>::type*>(p) = detail::pack(v);
}
template <int N>
KOKKOS_FORCEINLINE_FUNCTION void store_pack_nontemporal(float* p, const Pack<N>& v) {
  __stcs(reinterpret_cast<typename detail::Native<N>::type*>(p), detail::pack(v));
}

#elif defined(SEIS_DEVICE_HIP)
// Kokkos hands kernels generic pointers; without an address space clang emits flat_load/flat_store. Casting to
// the global (1) or LDS (3) address space gives global_load_dwordx4 / ds_read_b128 and their stores.
namespace detail {
template <int N>
struct Native {
  using type = float __attribute__((ext_vector_type(N)));
};
template <>
struct Native<1> {
  using type = float;
};
template <int N>
using Global = __attribute__((address_space(1))) typename Native<N>::type;
template <int N>
using Local = __attribute__((address_space(3))) typename Native<N>::type;

template <int N, class Vector>
KOKKOS_FORCEINLINE_FUNCTION Pack<N> unpack(const Vector& v) {
  Pack<N> out;
  if constexpr (N == 1) {
    out.lane[0] = v;
  } else {
    for (int l = 0; l < N; ++l) out.lane[l] = v[l];
  }
  return out;
}
template <int N>
KOKKOS_FORCEINLINE_FUNCTION typename Native<N>::type to_native(const Pack<N>& in) {
  if constexpr (N == 1) {
    return in.lane[0];
  } else {
    typename Native<N>::type v;
    for (int l = 0; l < N; ++l) v[l] = in.lane[l];
    return v;
  }
}
}  // namespace detail

template <int N>
KOKKOS_FORCEINLINE_FUNCTION Pack<N> load_pack(const float* p) {
  return detail::unpack<N>(*(const detail::Global<N>*)p);
}
template <int N>
KOKKOS_FORCEINLINE_FUNCTION void store_pack(float* p, const Pack<N>& v) {
  *(detail::Global<N>*)p = detail::to_native(v);
}
template <int N>
KOKKOS_FORCEINLINE_FUNCTION void store_pack_nontemporal(float* p, const Pack<N>& v) {
  __builtin_nontemporal_store(detail::to_native(v), (detail::Global<N>*)p);
}
// The cached branch of a run-time switch: LLVM merges `if (nt) nontemporal-store else store` into one plain store
// and drops the nontemporal flag (seen with hipcc 5.2 for gfx90a); a volatile store is not merged.
template <int N>
KOKKOS_FORCEINLINE_FUNCTION void store_pack_unmerged(float* p, const Pack<N>& v) {
  *(volatile detail::Global<N>*)p = detail::to_native(v);
}
template <int N>
KOKKOS_FORCEINLINE_FUNCTION Pack<N> load_scratch(const float* p) {
  return detail::unpack<N>(*(const detail::Local<N>*)p);
}
template <int N>
KOKKOS_FORCEINLINE_FUNCTION void store_scratch(float* p, const Pack<N>& v) {
  *(detail::Local<N>*)p = detail::to_native(v);
}

#else
template <int N>
KOKKOS_FORCEINLINE_FUNCTION Pack<N> load_pack(const float* p) {
  Pack<N> out;
  for (int l = 0; l < N; ++l) out.lane[l] = p[l];
  return out;
}
template <int N>
KOKKOS_FORCEINLINE_FUNCTION void store_pack(float* p, const Pack<N>& v) {
  for (int l = 0; l < N; ++l) p[l] = v.lane[l];
}
// x86 streaming stores (movntps) of whole aligned packs; other hosts and the scalar case store through the cache.
// They are weakly ordered: a thread ends its work with nontemporal_fence() before others may read what it wrote.
template <int N>
KOKKOS_FORCEINLINE_FUNCTION void store_pack_nontemporal(float* p, const Pack<N>& v) {
#if defined(SEIS_HOST_X86_STREAMING) && defined(__AVX__)
  if constexpr (N == 8) return _mm256_stream_ps(p, _mm256_loadu_ps(v.lane));
#endif
#if defined(SEIS_HOST_X86_STREAMING)
  if constexpr (N == 4) return _mm_stream_ps(p, _mm_loadu_ps(v.lane));
#endif
  store_pack(p, v);
}
#endif

// Orders a thread's streaming stores before its later stores (x86 sfence); GPU streaming stores need none.
KOKKOS_FORCEINLINE_FUNCTION void nontemporal_fence() {
#if defined(SEIS_HOST_X86_STREAMING)
  _mm_sfence();
#endif
}

// Asks for the cache line at p in the core's L2 ahead of its use (a host's prefetcht1, CUDA's prefetch.global.L2);
// no-op on HIP.
KOKKOS_FORCEINLINE_FUNCTION void prefetch_l2(const float* p) {
#if defined(__CUDA_ARCH__)
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#elif !defined(__CUDACC__) && !defined(__HIPCC__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_prefetch(p, 0, 2);
#else
  (void)p;
#endif
}

#if !defined(SEIS_DEVICE_HIP)
// CUDA and the host reach team scratch through ordinary (generic) pointers.
template <int N>
KOKKOS_FORCEINLINE_FUNCTION Pack<N> load_scratch(const float* p) {
  return load_pack<N>(p);
}
template <int N>
KOKKOS_FORCEINLINE_FUNCTION void store_scratch(float* p, const Pack<N>& v) {
  store_pack(p, v);
}
#endif

// Asynchronous copies of N floats from global memory into team scratch. copy_async issues one (zero-filled when
// `valid` is false), copy_async_commit closes the thread's group of copies, copy_async_wait(k) returns once at most
// k of its groups are still in flight; a team barrier then makes every thread's copies visible to the team.
//   CUDA (sm_80 and later): cp.async, .cg (L2 only) for 16 bytes, .ca below; the copy needs no register.
//   HIP and host: a load and a scratch store at issue time (gfx90a has no such copy engine).
#if defined(SEIS_DEVICE_CUDA) && __CUDA_ARCH__ >= 800
template <int N>
KOKKOS_FORCEINLINE_FUNCTION void copy_async(float* scratch, const float* global, bool valid) {
  const unsigned target = static_cast<unsigned>(__cvta_generic_to_shared(scratch));
  const int bytes = valid ? 4 * N : 0;
  if constexpr (N == 4) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(target), "l"(global), "r"(bytes) : "memory");
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(target), "l"(global), "n"(4 * N), "r"(bytes)
                 : "memory");
  }
}
KOKKOS_FORCEINLINE_FUNCTION void copy_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int K>
KOKKOS_FORCEINLINE_FUNCTION void copy_async_wait_group() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(K) : "memory");
}
// wait_group takes an immediate: the run-time count selects one of eight.
KOKKOS_FORCEINLINE_FUNCTION void copy_async_wait(int pending) {
  switch (pending) {
    case 0:
      copy_async_wait_group<0>();
      break;
    case 1:
      copy_async_wait_group<1>();
      break;
    case 2:
      copy_async_wait_group<2>();
      break;
    case 3:
      copy_async_wait_group<3>();
      break;
    case 4:
      copy_async_wait_group<4>();
      break;
    case 5:
      copy_async_wait_group<5>();
      break;
    case 6:
      copy_async_wait_group<6>();
      break;
    default:
      copy_async_wait_group<7>();
      break;
  }
}
#else
template <int N>
KOKKOS_FORCEINLINE_FUNCTION void copy_async(float* scratch, const float* global, bool valid) {
  store_scratch(scratch, valid ? load_pack<N>(global) : Pack<N>{});
}
KOKKOS_FORCEINLINE_FUNCTION void copy_async_commit() {}
KOKKOS_FORCEINLINE_FUNCTION void copy_async_wait(int) {}
#endif
// At most this many groups may be left in flight by copy_async_wait.
constexpr int copy_async_max_pending = 7;

// A store that the caller switches between cached and streaming at run time (both are benchmarked).
template <int N>
KOKKOS_FORCEINLINE_FUNCTION void store_output(float* p, const Pack<N>& v, bool nontemporal) {
  if (nontemporal) {
    store_pack_nontemporal(p, v);
  } else {
#if defined(SEIS_DEVICE_HIP)
    store_pack_unmerged(p, v);
#else
    store_pack(p, v);
#endif
  }
}
KOKKOS_FORCEINLINE_FUNCTION void store_output(float* p, float v, bool nontemporal) {
  store_output(p, Pack<1>{{v}}, nontemporal);
}

// The stores store_lanes makes: plain ones, or store_output's run-time switch.
struct PlainStore {
  template <int N>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(float* p, const Pack<N>& v) const {
    store_pack(p, v);
  }
};
struct OutputStore {
  bool nontemporal;
  template <int N>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(float* p, const Pack<N>& v) const {
    store_output(p, v, nontemporal);
  }
};

// Stores the lanes [first, last) of v at p (where lane 0 goes): the whole pack where they are all of it, else lane
// by lane, the lanes outside left alone (a vector straddling a launch's box: they belong to another launch,
// possibly running beside this one).
template <int N, class Store = PlainStore>
KOKKOS_FORCEINLINE_FUNCTION void store_lanes(float* p, const Pack<N>& v, int first, int last, Store store = {}) {
  if (first == 0 && last == N) {
    store(p, v);
  } else {
    for (int l = 0; l < N; ++l)  // constant lane indices: a run-time range would put the pack on the stack
      if (l >= first && l < last) store(p + l, Pack<1>{{v.lane[l]}});
  }
}

// The host row engine's store of n floats (src in L1) to a row of a field: with `nontemporal`, the whole 64-byte
// lines of the row as x86 streaming stores (movntps, AVX), the partial lines at its ends through the cache. A line
// written partly by movntps leaves the write-combining buffer as a partial write, and one written partly through
// the cache as well flushes it: rows of 255 floats (the last line 15/16 streamed) ran at half the speed of rows of
// 256 (perf/NOTES.md 62).
inline void store_row(float* dst, const float* src, int n, bool nontemporal) {
  int i = 0;
#if defined(SEIS_HOST_X86_STREAMING) && defined(__AVX__)
  if (nontemporal) {
    constexpr int line = 64 / sizeof(float);
    const int head = static_cast<int>((64 - reinterpret_cast<std::uintptr_t>(dst) % 64) % 64 / sizeof(float));
    if (head + line <= n) {
      for (; i < head; ++i) dst[i] = src[i];
      for (; i + line <= n; i += line) {
        _mm256_stream_ps(dst + i, _mm256_loadu_ps(src + i));
        _mm256_stream_ps(dst + i + line / 2, _mm256_loadu_ps(src + i + line / 2));
      }
    }
  }
#else
  (void)nontemporal;
#endif
  for (; i < n; ++i) dst[i] = src[i];
}

// seis::store_nontemporal(ptr, value): the scalar and vector streaming stores, named as the issue tracker does.
KOKKOS_FORCEINLINE_FUNCTION void store_nontemporal(float* p, float v) { store_pack_nontemporal(p, Pack<1>{{v}}); }
template <int N>
KOKKOS_FORCEINLINE_FUNCTION void store_nontemporal(float* p, const Pack<N>& v) {
  store_pack_nontemporal(p, v);
}

}  // namespace seis

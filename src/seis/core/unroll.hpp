#pragma once
// SEIS_HOST_UNROLL before a loop over a stencil's taps (a trip count known when compiling): GCC unrolls it whole, as
// GPU compilers do by themselves. Without it GCC stops short at large radii, and then vectorises no x loop around
// the taps (the TTI step's rows at R = 8: 533 ms a step at 168^3 where R = 4 took 74, perf/NOTES.md 168).
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#define SEIS_HOST_UNROLL _Pragma("GCC unroll 16")
#else
#define SEIS_HOST_UNROLL
#endif

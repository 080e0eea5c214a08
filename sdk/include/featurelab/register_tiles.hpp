// What register-tiled kernels in packs build on (std two-layer's narrow products, midpoint-mixup's patch
// products): a strip of Scalar as wide as one vector register, and whether the machine has 32 vector
// registers (AVX-512) or 16 (AVX2), which sizes their tiles.
#pragma once

#include <featurelab/types.hpp>

namespace featurelab::register_tiles {

// Values per strip: one vector register of Scalar (Eigen's packet), as an Eigen fixed-size array (its
// operations are explicit vector instructions, and a tile of them stays in registers).
constexpr Index kLanes = Eigen::internal::packet_traits<Scalar>::size;
using Strip = Eigen::Array<Scalar, kLanes, 1>;

// Before a loop over a tile's registers (its accumulators, positions or taps): unrolled whatever its trip count,
// so each accumulator stays in its own register. GCC unrolls loops of at most 16 trips by itself; a tile of 24
// taps left its accumulators on the stack, a load and a store around every multiply-add (bench/README.md, round
// 24). Clang reads the same pragma.
#define FEATURELAB_UNROLL_TILE _Pragma("GCC unroll 32")

#ifdef EIGEN_ARCH_DEFAULT_NUMBER_OF_REGISTERS
constexpr bool kManyRegisters = EIGEN_ARCH_DEFAULT_NUMBER_OF_REGISTERS >= 32;
#else
constexpr bool kManyRegisters = false;
#endif

// The strip that starts at p (unaligned).
inline Eigen::Map<const Strip> strip_at(const Scalar* p) { return Eigen::Map<const Strip>(p); }

}  // namespace featurelab::register_tiles

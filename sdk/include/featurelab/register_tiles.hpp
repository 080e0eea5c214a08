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

#ifdef EIGEN_ARCH_DEFAULT_NUMBER_OF_REGISTERS
constexpr bool kManyRegisters = EIGEN_ARCH_DEFAULT_NUMBER_OF_REGISTERS >= 32;
#else
constexpr bool kManyRegisters = false;
#endif

// The strip that starts at p (unaligned).
inline Eigen::Map<const Strip> strip_at(const Scalar* p) { return Eigen::Map<const Strip>(p); }

}  // namespace featurelab::register_tiles

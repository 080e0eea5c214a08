// Vector registers by their width in Scalars, for the image layers' kernels: a strip of L lanes is
// PacketOf<L>::type, the full register (kLanes), half of one (kHalfLanes: 8 channels on AVX-512 fill it, where a
// full register would compute 8 zeros), or a lone Scalar (1: any channel count), on which Eigen's packet
// functions work alike.
#pragma once

#include <featurelab/types.hpp>

namespace featurelab::std_pack {

constexpr int kLanes = Eigen::internal::packet_traits<Scalar>::size;
constexpr int kHalfLanes = static_cast<int>(sizeof(Eigen::internal::packet_traits<Scalar>::half) / sizeof(Scalar));

template <int Lanes>
struct PacketOf;
template <>
struct PacketOf<kLanes> {
  using type = Eigen::internal::packet_traits<Scalar>::type;
};
// (Where half a register is the whole one, as with SSE, this is PacketOf<0>, never used.)
template <>
struct PacketOf<(kHalfLanes < kLanes ? kHalfLanes : 0)> {
  using type = Eigen::internal::packet_traits<Scalar>::half;
};
template <>
struct PacketOf<1> {
  using type = Scalar;
};

// The widest strip that divides `values` exactly.
constexpr int lanes_dividing(Index values) {
  return values % kLanes == 0 ? kLanes : kHalfLanes < kLanes && values % kHalfLanes == 0 ? kHalfLanes : 1;
}

}  // namespace featurelab::std_pack

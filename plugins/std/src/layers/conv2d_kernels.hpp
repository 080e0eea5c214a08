// The conv2d layer's products read from the images themselves (an implicit GEMM), in vector registers: no
// patches matrix is written and read back, the im2col pass that held the layer to the memory's speed
// (bench/README.md, round 14).
//
// An image is channels last inside its zero border: value c of padded position (y, x) at (y·Wp + x)·C + c. A
// filter's taps are ordered (dy, dx, c), so for each filter row dy the k·C values a patch reads are one
// contiguous run of the padded image, and the runs of an output row's positions are that run shifted by s·C
// per position. The two products read them in place:
//   correlate(…)         Z(y, x, :) = b + Σ_{dy, dx, c} P(s·y + dy, s·x + dx, c) · T((dy·k + dx)·C + c, :)   forward
//   add_tap_gradients(…) ∂T((dy·k + dx)·C + c, :) += Σ_{y, x} P(s·y + dy, s·x + dx, c) · G(y, x, :)       ∇W
// T (taps × output channels) is the filters transposed, its columns padded with zeros to whole vector strips;
// the input's gradient is a correlate() too, of the output's gradient spread out with the filters turned over
// (conv2d_layer.cpp). A tile holds R positions (or I taps) × S strips of accumulators; each output is one
// accumulator whose terms come in a fixed order (dy, dx, c ascending; positions ascending for ∂T), so the
// bits depend on the operands alone, never on the tiling or the thread count.
#pragma once

#include "lane_packets.hpp"

#include <featurelab/register_tiles.hpp>

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>

// The paired kernels below: AVX-512 and float only (with AVX2 or in double, 8 channels fill a whole register).
#if defined(__AVX512F__) && !defined(FEATURELAB_SCALAR_DOUBLE)
#define FEATURELAB_CONV_PAIRED_POSITIONS 1
#include <immintrin.h>
#endif

namespace featurelab::std_pack::conv2d_kernels {

// The lanes of the strips for `cols` outputs (half registers for at most half a register's width, so no lane
// computes a zero), and cols rounded up to whole strips: T's and a strip-padded G's row width.
constexpr int lanes_for(Index cols) { return kHalfLanes < kLanes && cols <= kHalfLanes ? kHalfLanes : kLanes; }
constexpr Index strip_width(Index cols) { return (cols + lanes_for(cols) - 1) / lanes_for(cols) * lanes_for(cols); }

// Tiles sized to the vector registers (32 with AVX-512, 16 with AVX2): accumulators, S strips of the
// right operand and one broadcast. A 28-wide output row is two tiles of 14 positions.
constexpr int kStrips = 2;
constexpr int kTileRows1 = register_tiles::kManyRegisters ? 14 : 12;  // positions, one strip
constexpr int kTileRows2 = register_tiles::kManyRegisters ? 12 : 6;   // positions, two strips
constexpr int kTileTaps1 = register_tiles::kManyRegisters ? 24 : 12;  // taps, one strip
constexpr int kTileTaps2 = register_tiles::kManyRegisters ? 12 : 6;   // taps, two strips

// One correlation's shape: the padded input's channels and row length, the filter, the output's size.
struct Geometry {
  Index channels = 0;     // C: values per position of the padded input
  Index kernel = 1;       // k
  Index stride = 1;       // s
  Index row_values = 0;   // values per row of the padded input (Wp·C)
  Index out_height = 0;   // H'
  Index out_width = 0;    // W'
  Index run() const { return kernel * channels; }        // a filter row's taps, contiguous in the input
  Index step() const { return stride * channels; }       // from one output position's patch to the next
};

namespace detail {

using Eigen::internal::pmadd;
using Eigen::internal::ploadu;
using Eigen::internal::pset1;
using Eigen::internal::pstoreu;

// `cols` values of a strip to `to` (all of it when it is whole; none when cols ≤ 0, which a tile's strips never
// have, but the compiler cannot know once it unrolls them).
template <int L, typename P = typename PacketOf<L>::type>
inline void store_strip(Scalar* to, const P& strip, Index cols) {
  if (cols >= L) {
    pstoreu(to, strip);
    return;
  }
  if (cols <= 0) return;
  Scalar lanes[L];
  pstoreu(lanes, strip);
  std::copy(lanes, lanes + cols, to);
}

// Z of R consecutive positions of one output row × S strips; `in` is the first position's patch origin,
// `out` its output (ldo values per position, `cols` of them written from this strip on). Step: the input step
// s·C between positions when known at compile time (0: g.step()). With a runtime step each position's reads need
// a pointer register of their own, and 14 positions ran out of them: a known step makes them displacements of
// one pointer (the forward convolution of conv-net's second block, 1.3× faster; bench/README.md round 24).
template <int L, int R, int S, Index Step = 0>
inline void correlate_tile(const Scalar* in, const Geometry& g, const Scalar* T, Index ldt, const Scalar* bias, Scalar* out,
                           Index ldo, Index cols) {
  using P = typename PacketOf<L>::type;
  P acc[R][S];
  FEATURELAB_UNROLL_TILE for (int s = 0; s < S; ++s) {
    const P start = bias ? ploadu<P>(bias + s * L) : pset1<P>(Scalar(0));
    FEATURELAB_UNROLL_TILE for (int r = 0; r < R; ++r) acc[r][s] = start;
  }
  const Index run = g.run(), step = Step != 0 ? Step : g.step();
  for (Index dy = 0; dy < g.kernel; ++dy) {
    const Scalar* row = in + dy * g.row_values;
    const Scalar* taps = T + dy * run * ldt;
    for (Index j = 0; j < run; ++j) {
      P w[S];
      FEATURELAB_UNROLL_TILE for (int s = 0; s < S; ++s) w[s] = ploadu<P>(taps + j * ldt + s * L);
      FEATURELAB_UNROLL_TILE for (int r = 0; r < R; ++r) {
        const P x = pset1<P>(row[r * step + j]);
        FEATURELAB_UNROLL_TILE for (int s = 0; s < S; ++s) acc[r][s] = pmadd(x, w[s], acc[r][s]);
      }
    }
  }
  FEATURELAB_UNROLL_TILE for (int r = 0; r < R; ++r) {
    FEATURELAB_UNROLL_TILE for (int s = 0; s < S; ++s) store_strip<L>(out + r * ldo + s * L, acc[r][s], cols - s * L);
  }
}

// The last positions of a row (fewer than a tile) in one tile of that many.
template <int L, int S, int... Rest>
inline void correlate_rest(int positions, const Scalar* in, const Geometry& g, const Scalar* T, Index ldt, const Scalar* bias,
                           Scalar* out, Index ldo, Index cols, std::integer_sequence<int, Rest...>) {
  ((positions == Rest + 1 ? correlate_tile<L, Rest + 1, S>(in, g, T, ldt, bias, out, ldo, cols) : void()), ...);
}

// One output row, S strips: whole tiles of R positions (Step as correlate_tile's), then the rest.
template <int L, int S, int R, Index Step>
inline void correlate_row(const Scalar* in, const Geometry& g, const Scalar* T, Index ldt, const Scalar* bias, Scalar* out,
                          Index ldo, Index cols) {
  const Index width = g.out_width, step = g.step();
  Index x = 0;
  for (; x + R <= width; x += R) correlate_tile<L, R, S, Step>(in + x * step, g, T, ldt, bias, out + x * ldo, ldo, cols);
  if (x < width) {
    correlate_rest<L, S>(static_cast<int>(width - x), in + x * step, g, T, ldt, bias, out + x * ldo, ldo, cols,
                      std::make_integer_sequence<int, R - 1>{});
  }
}

// ∂T of I consecutive taps of one filter row × S strips, summed over every output position of one image;
// `in` is position (0, 0)'s value of the first tap. With Sums, also sums (S strips) += Σ_p G(p, :) over the same
// positions in the same order, add_column_sums' bits (∇b): its own pass over G was one dependent add per position,
// a third of the backward pass's loop (bench/README.md, round 23); here its adds wait beside the tile's.
template <int L, int I, int S, bool Sums = false>
inline void tap_gradient_tile(const Scalar* in, const Geometry& g, const Scalar* G, Index ldg, Scalar* dT, Index ldt,
                              Scalar* sums = nullptr) {
  using P = typename PacketOf<L>::type;
  P acc[I][S];
  FEATURELAB_UNROLL_TILE for (int i = 0; i < I; ++i) {
    FEATURELAB_UNROLL_TILE for (int s = 0; s < S; ++s) acc[i][s] = ploadu<P>(dT + i * ldt + s * L);
  }
  P column[S];
  if constexpr (Sums) {
    FEATURELAB_UNROLL_TILE for (int s = 0; s < S; ++s) column[s] = ploadu<P>(sums + s * L);
  }
  const Index step = g.step();
  for (Index y = 0; y < g.out_height; ++y) {
    const Scalar* row = in + y * g.stride * g.row_values;
    const Scalar* grads = G + y * g.out_width * ldg;
    for (Index x = 0; x < g.out_width; ++x) {
      P d[S];
      FEATURELAB_UNROLL_TILE for (int s = 0; s < S; ++s) d[s] = ploadu<P>(grads + x * ldg + s * L);
      if constexpr (Sums) {
        FEATURELAB_UNROLL_TILE for (int s = 0; s < S; ++s) column[s] = Eigen::internal::padd(column[s], d[s]);
      }
      FEATURELAB_UNROLL_TILE for (int i = 0; i < I; ++i) {
        const P v = pset1<P>(row[x * step + i]);
        FEATURELAB_UNROLL_TILE for (int s = 0; s < S; ++s) acc[i][s] = pmadd(v, d[s], acc[i][s]);
      }
    }
  }
  FEATURELAB_UNROLL_TILE for (int i = 0; i < I; ++i) {
    FEATURELAB_UNROLL_TILE for (int s = 0; s < S; ++s) pstoreu(dT + i * ldt + s * L, acc[i][s]);
  }
  if constexpr (Sums) {
    FEATURELAB_UNROLL_TILE for (int s = 0; s < S; ++s) pstoreu(sums + s * L, column[s]);
  }
}

template <int L, int S, int... Rest>
inline void tap_gradient_rest(int taps, const Scalar* in, const Geometry& g, const Scalar* G, Index ldg, Scalar* dT, Index ldt,
                              std::integer_sequence<int, Rest...>) {
  ((taps == Rest + 1 ? tap_gradient_tile<L, Rest + 1, S>(in, g, G, ldg, dT, ldt) : void()), ...);
}

// Every tap of every filter row, S strips: whole tiles of I taps, then the rest of each row's run. `sums` (or
// null): the strips' column sums, added by the first tile.
template <int L, int S, int I>
inline void tap_gradient_strips(const Scalar* image, const Geometry& g, const Scalar* G, Index ldg, Scalar* dT, Index ldt,
                                Scalar* sums) {
  const Index run = g.run();
  for (Index dy = 0; dy < g.kernel; ++dy) {
    const Scalar* in = image + dy * g.row_values;
    Scalar* rows = dT + dy * run * ldt;
    Index j = 0;
    if (sums && run >= I) {
      tap_gradient_tile<L, I, S, true>(in, g, G, ldg, rows, ldt, sums);
      sums = nullptr;
      j = I;
    }
    for (; j + I <= run; j += I) tap_gradient_tile<L, I, S>(in + j, g, G, ldg, rows + j * ldt, ldt);
    if (j < run) {
      tap_gradient_rest<L, S>(static_cast<int>(run - j), in + j, g, G, ldg, rows + j * ldt, ldt, std::make_integer_sequence<int, I - 1>{});
    }
  }
  if (sums) {  // runs shorter than a tile: the sums alone, in the same order
    using P = typename PacketOf<L>::type;
    const Index positions = g.out_height * g.out_width;
    FEATURELAB_UNROLL_TILE for (int s = 0; s < S; ++s) {
      P column = ploadu<P>(sums + s * L);
      for (Index p = 0; p < positions; ++p) column = Eigen::internal::padd(column, ploadu<P>(G + p * ldg + s * L));
      pstoreu(sums + s * L, column);
    }
  }
}

// Z of one padded image with strips of L lanes (correlate below), the input step a constant (Step) or not (0).
template <int L, Index Step>
inline void correlate_lanes_stepped(const Scalar* image, const Geometry& g, const Scalar* T, Index cols, const Scalar* bias, Scalar* out,
                            Index ldo) {
  const Index ldt = strip_width(cols), strips = ldt / L;
  for (Index y = 0; y < g.out_height; ++y) {
    const Scalar* in = image + y * g.stride * g.row_values;
    Scalar* row_out = out + y * g.out_width * ldo;
    Index s = 0;
    for (; s + kStrips <= strips; s += kStrips) {
      correlate_row<L, kStrips, kTileRows2, Step>(in, g, T + s * L, ldt, bias ? bias + s * L : nullptr, row_out + s * L, ldo, cols - s * L);
    }
    if (s < strips) {
      correlate_row<L, 1, kTileRows1, Step>(in, g, T + s * L, ldt, bias ? bias + s * L : nullptr, row_out + s * L, ldo, cols - s * L);
    }
  }
}

// The input steps of the convolutions that run most (8, 16 and 32 channels at stride 1) as constants.
template <int L>
inline void correlate_lanes(const Scalar* image, const Geometry& g, const Scalar* T, Index cols, const Scalar* bias, Scalar* out,
                            Index ldo) {
  switch (g.step()) {
    case 8: correlate_lanes_stepped<L, 8>(image, g, T, cols, bias, out, ldo); return;
    case 16: correlate_lanes_stepped<L, 16>(image, g, T, cols, bias, out, ldo); return;
    case 32: correlate_lanes_stepped<L, 32>(image, g, T, cols, bias, out, ldo); return;
    default: correlate_lanes_stepped<L, 0>(image, g, T, cols, bias, out, ldo);
  }
}

// ∂T (and the column sums, unless `sums` is null) from one image with strips of L lanes (add_tap_gradients below).
template <int L>
inline void add_tap_gradients_lanes(const Scalar* image, const Geometry& g, const Scalar* G, Index ldg, Scalar* dT, Scalar* sums) {
  const Index strips = ldg / L;
  Index s = 0;
  for (; s + kStrips <= strips; s += kStrips) {
    tap_gradient_strips<L, kStrips, kTileTaps2>(image, g, G + s * L, ldg, dT + s * L, ldg, sums ? sums + s * L : nullptr);
  }
  if (s < strips) tap_gradient_strips<L, 1, kTileTaps1>(image, g, G + s * L, ldg, dT + s * L, ldg, sums ? sums + s * L : nullptr);
}

}  // namespace detail

// Z = the correlation of one padded image (`image`, shaped by g) with T (g.kernel²·g.channels ×
// strip_width(cols)), plus `bias` (strip_width(cols) values, or null for none): position (y, x)'s `cols`
// values at out + (y·W' + x)·ldo.
inline void correlate(const Scalar* image, const Geometry& g, const Scalar* T, Index cols, const Scalar* bias, Scalar* out,
                      Index ldo) {
  if (lanes_for(cols) == kLanes) {
    detail::correlate_lanes<kLanes>(image, g, T, cols, bias, out, ldo);
  } else {
    detail::correlate_lanes<kHalfLanes>(image, g, T, cols, bias, out, ldo);
  }
}

// dT (g.kernel²·g.channels × strip_width(cols)) += the taps' gradients from one image: its padded values
// `image` against its output's gradient G (position (y, x)'s strip-padded row at G + (y·W' + x)·strip_width(cols));
// and, unless `sums` is null, sums += G's column sums as add_column_sums(G, W'·H', cols, sums) adds them, the
// same bits.
inline void add_tap_gradients(const Scalar* image, const Geometry& g, const Scalar* G, Index cols, Scalar* dT,
                              Scalar* sums = nullptr) {
  if (lanes_for(cols) == kLanes) {
    detail::add_tap_gradients_lanes<kLanes>(image, g, G, strip_width(cols), dT, sums);
  } else {
    detail::add_tap_gradients_lanes<kHalfLanes>(image, g, G, strip_width(cols), dT, sums);
  }
}

// sums (strip_width(cols) values) += Σ_p G(p, :) over `positions` rows of a strip-padded G (∇b), p ascending.
inline void add_column_sums(const Scalar* G, Index positions, Index cols, Scalar* sums) {
  const auto add = [&](auto lanes) {
    constexpr int L = decltype(lanes)::value;
    using P = typename PacketOf<L>::type;
    const Index ldg = strip_width(cols);
    for (Index s = 0; s < ldg; s += L) {
      P acc = Eigen::internal::ploadu<P>(sums + s);
      for (Index p = 0; p < positions; ++p) acc = Eigen::internal::padd(acc, Eigen::internal::ploadu<P>(G + p * ldg + s));
      Eigen::internal::pstoreu(sums + s, acc);
    }
  };
  if (lanes_for(cols) == kLanes) {
    add(std::integral_constant<int, kLanes>{});
  } else {
    add(std::integral_constant<int, kHalfLanes>{});
  }
}

// Outputs of exactly 8 channels in float (conv-net's first convolution, and the input gradient of its second) fill
// half an AVX-512 register, so correlate() runs them at half the machine's speed. correlate_paired() computes two
// neighbouring positions of a row in one register, lanes interleaved: [position 2q, channel 0 | 2q + 1, channel 0 |
// 2q, channel 1 | …]. Its operands are laid out for that once per image or per pass:
//   pair_up     the padded image with each value beside the value one stride to its right (the next position's
//               value at the same tap): dup[2v] = P[v], dup[2v + 1] = P[v + s·C], so one 64-bit broadcast gives
//               both positions' input for a tap
//   twice       each filter value twice, T2(j, 2o + h) = T(j, o), and the bias likewise
// Every lane still computes b + Σ_j x_j·T(j, o) as one fused multiply-add per tap, in correlate()'s order, so
// the bits are the same as correlate()'s (std-tests compare them).
#if defined(FEATURELAB_CONV_PAIRED_POSITIONS)
inline constexpr bool kPairedPositions = true;

namespace detail {

template <int Q>
inline void correlate_pair_tile(const float* dup, const Geometry& g, const float* T2, const float* bias2, float* out) {
  __m512 acc[Q];
  const __m512 start = bias2 ? _mm512_loadu_ps(bias2) : _mm512_setzero_ps();
  FEATURELAB_UNROLL_TILE for (int q = 0; q < Q; ++q) acc[q] = start;
  const Index run = g.run(), step = g.step();
  for (Index dy = 0; dy < g.kernel; ++dy) {
    const float* row = dup + 2 * dy * g.row_values;
    const float* taps = T2 + dy * run * 16;
    for (Index j = 0; j < run; ++j) {
      const __m512 w = _mm512_loadu_ps(taps + j * 16);
      FEATURELAB_UNROLL_TILE for (int q = 0; q < Q; ++q) {
        double both;  // positions 2q and 2q + 1 at tap j
        std::memcpy(&both, row + 2 * (2 * q * step + j), sizeof both);
        acc[q] = _mm512_fmadd_ps(_mm512_castpd_ps(_mm512_set1_pd(both)), w, acc[q]);
      }
    }
  }
  // [2q: c0..c7 | 2q + 1: c0..c7], the two positions' channels side by side as the output has them.
  const __m512i split = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
  FEATURELAB_UNROLL_TILE for (int q = 0; q < Q; ++q) _mm512_storeu_ps(out + 16 * q, _mm512_permutexvar_ps(split, acc[q]));
}

// ∂T of I pairs of taps × 8 channels, lanes interleaved as [tap j, channel 0 | tap j + 1, channel 0 | tap j, channel 1
// | …], summed over every output position of one image. Pair i's taps j, j + 1 lie side by side in the image, at
// offsets[i] from a position's patch origin, and rows[i] is j's row of dT (ldt = 8). G2 is the output's gradient
// with each value twice (twice()). With Sums, also sums (8 values) += Σ_p G(p, :) as tap_gradient_tile's Sums.
template <int I, bool Sums = false>
inline void tap_gradient_pair_tile(const float* image, const Geometry& g, const Index* offsets, const Index* rows,
                                   const float* G2, float* dT, float* sums = nullptr) {
  const __m512i join = _mm512_setr_epi32(0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
  const __m512i split = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
  // Each sum twice, [c0 | c0 | c1 | c1 | …], as G2 has the gradient.
  __m512 column = _mm512_setzero_ps();
  if constexpr (Sums) {
    const __m512i doubled = _mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
    column = _mm512_permutexvar_ps(doubled, _mm512_castps256_ps512(_mm256_loadu_ps(sums)));
  }
  __m512 acc[I];
  FEATURELAB_UNROLL_TILE for (int i = 0; i < I; ++i) {
    const __m512 halves = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(dT + rows[i] * 8)),
                                             _mm256_loadu_ps(dT + (rows[i] + 1) * 8), 1);
    acc[i] = _mm512_permutexvar_ps(join, halves);
  }
  const Index step = g.step();
  for (Index y = 0; y < g.out_height; ++y) {
    const float* row = image + y * g.stride * g.row_values;
    const float* grads = G2 + y * g.out_width * 16;
    for (Index x = 0; x < g.out_width; ++x) {
      const __m512 d = _mm512_loadu_ps(grads + x * 16);
      if constexpr (Sums) column = _mm512_add_ps(column, d);
      const float* patch = row + x * step;
      FEATURELAB_UNROLL_TILE for (int i = 0; i < I; ++i) {
        double both;  // taps j and j + 1 of this position
        std::memcpy(&both, patch + offsets[i], sizeof both);
        acc[i] = _mm512_fmadd_ps(_mm512_castpd_ps(_mm512_set1_pd(both)), d, acc[i]);
      }
    }
  }
  FEATURELAB_UNROLL_TILE for (int i = 0; i < I; ++i) {
    const __m512 halves = _mm512_permutexvar_ps(split, acc[i]);
    _mm256_storeu_ps(dT + rows[i] * 8, _mm512_castps512_ps256(halves));
    _mm256_storeu_ps(dT + (rows[i] + 1) * 8, _mm512_extractf32x8_ps(halves, 1));
  }
  if constexpr (Sums) _mm256_storeu_ps(sums, _mm512_castps512_ps256(_mm512_permutexvar_ps(split, column)));
}

template <bool Sums, int... Rest>
inline void tap_gradient_pair_rest(int pairs, const float* image, const Geometry& g, const Index* offsets, const Index* rows,
                                   const float* G2, float* dT, float* sums, std::integer_sequence<int, Rest...>) {
  ((pairs == Rest + 1 ? tap_gradient_pair_tile<Rest + 1, Sums>(image, g, offsets, rows, G2, dT, sums) : void()), ...);
}

template <int... Rest>
inline void correlate_pair_rest(int pairs, const float* dup, const Geometry& g, const float* T2, const float* bias2, float* out,
                                std::integer_sequence<int, Rest...>) {
  ((pairs == Rest + 1 ? correlate_pair_tile<Rest + 1>(dup, g, T2, bias2, out) : void()), ...);
}

}  // namespace detail

// dup (2·values) from the `values` values of a padded image (pair_up above); `step` = s·C.
inline void pair_up(const Scalar* padded, Index values, Index step, Scalar* dup) {
  const Index inside = std::max<Index>(values - step, 0);
  for (Index v = 0; v < inside; ++v) {
    dup[2 * v] = padded[v];
    dup[2 * v + 1] = padded[v + step];
  }
  for (Index v = inside; v < values; ++v) {
    dup[2 * v] = padded[v];
    dup[2 * v + 1] = 0;
  }
}

// Rows of 8 values with each value twice (rows × 16): to(r, 2o + h) = from(r, o). The filters (T2 from T), the bias
// and the output's gradient (G2 from G) for the paired kernels.
inline void twice(const Scalar* from, Index rows, Scalar* to) {
  for (Index r = 0; r < rows; ++r) {
    for (Index o = 0; o < 16; ++o) to[r * 16 + o] = from[r * 8 + o / 2];
  }
}

// dT (taps × 8) += the taps' gradients from one image for 8 output channels, as add_tap_gradients(image, g, G, 8, dT):
// the taps of each filter row in pairs (tiles of up to 12 pairs across the rows) from G2 (twice() of G), the
// last tap of an odd row alone in add_tap_gradients' half-register tile.
// `sums` (or null): G's column sums added by the first tile that runs, as add_tap_gradients adds them.
inline void add_tap_gradients_paired(const Scalar* image, const Geometry& g, const Scalar* G, const Scalar* G2, Scalar* dT,
                                     Scalar* sums = nullptr) {
  constexpr int kTile = 12;
  const Index run = g.run();
  Index offsets[kTile], rows[kTile];
  int filled = 0;
  const auto flush = [&] {
    if (filled == kTile) {
      if (sums) {
        detail::tap_gradient_pair_tile<kTile, true>(image, g, offsets, rows, G2, dT, sums);
      } else {
        detail::tap_gradient_pair_tile<kTile>(image, g, offsets, rows, G2, dT);
      }
    } else if (filled > 0) {
      if (sums) {
        detail::tap_gradient_pair_rest<true>(filled, image, g, offsets, rows, G2, dT, sums, std::make_integer_sequence<int, kTile - 1>{});
      } else {
        detail::tap_gradient_pair_rest<false>(filled, image, g, offsets, rows, G2, dT, nullptr,
                                              std::make_integer_sequence<int, kTile - 1>{});
      }
    } else {
      return;
    }
    filled = 0;
    sums = nullptr;
  };
  for (Index dy = 0; dy < g.kernel; ++dy) {
    for (Index j = 0; j + 1 < run; j += 2) {
      offsets[filled] = dy * g.row_values + j;
      rows[filled] = dy * run + j;
      if (++filled == kTile) flush();
    }
    if (run % 2 != 0) {
      const Scalar* in = image + dy * g.row_values + run - 1;
      Scalar* odd = dT + (dy * run + run - 1) * 8;
      if (sums) {
        detail::tap_gradient_tile<kHalfLanes, 1, 1, true>(in, g, G, 8, odd, 8, sums);
        sums = nullptr;
      } else {
        detail::tap_gradient_tile<kHalfLanes, 1, 1>(in, g, G, 8, odd, 8);
      }
    }
  }
  flush();
}

// Z of one padded image for 8 output channels (out: 8 values a position), as correlate(image, g, T, 8, bias, out, 8):
// each row's positions in pairs from dup (pair_up of image), tiles of up to 14 pairs; an odd last position
// from the image itself, in correlate()'s half-register tile.
inline void correlate_paired(const Scalar* image, const Scalar* dup, const Geometry& g, const Scalar* T, const Scalar* T2,
                             const Scalar* bias, const Scalar* bias2, Scalar* out) {
  constexpr int kPairs = 14;
  const Index width = g.out_width, step = g.step(), pairs = width / 2;
  for (Index y = 0; y < g.out_height; ++y) {
    const Index first = y * g.stride * g.row_values;
    Scalar* row_out = out + y * width * 8;
    Index q = 0;
    for (; q + kPairs <= pairs; q += kPairs) {
      detail::correlate_pair_tile<kPairs>(dup + 2 * (first + 2 * q * step), g, T2, bias2, row_out + 16 * q);
    }
    if (q < pairs) {
      detail::correlate_pair_rest(static_cast<int>(pairs - q), dup + 2 * (first + 2 * q * step), g, T2, bias2, row_out + 16 * q,
                                  std::make_integer_sequence<int, kPairs - 1>{});
    }
    if (width % 2 != 0) {
      detail::correlate_tile<kHalfLanes, 1, 1>(image + first + (width - 1) * step, g, T, 8, bias, row_out + (width - 1) * 8, 8, 8);
    }
  }
}
#else
inline constexpr bool kPairedPositions = false;
inline void pair_up(const Scalar*, Index, Index, Scalar*) {}
inline void twice(const Scalar*, Index, Scalar*) {}
inline void correlate_paired(const Scalar* image, const Scalar*, const Geometry& g, const Scalar* T, const Scalar*,
                             const Scalar* bias, const Scalar*, Scalar* out) {
  correlate(image, g, T, 8, bias, out, 8);
}
inline void add_tap_gradients_paired(const Scalar* image, const Geometry& g, const Scalar* G, const Scalar*, Scalar* dT,
                                     Scalar* sums = nullptr) {
  add_tap_gradients(image, g, G, 8, dT, sums);
}
#endif

}  // namespace featurelab::std_pack::conv2d_kernels

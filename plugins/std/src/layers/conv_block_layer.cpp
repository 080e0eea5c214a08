// conv2d's convolution of each image into a map per chunk of images, then the activation and the pooling of that
// map while it is in the cache; backward builds each image's map gradient the same way and hands it to conv2d's.
// Each value is computed with the operations, in the order, of activation and pool (pool_layer.cpp): the
// maximum keeps the first of equal entries (a strictly larger one replaces it, a NaN never does), the mean
// adds the window's entries row by row and divides by size².
#include "conv_block_layer.hpp"

#include "lane_packets.hpp"

#include <featurelab/error.hpp>
#include <featurelab/threads.hpp>

#include <algorithm>
#include <string>
#include <type_traits>

namespace featurelab::std_pack {

namespace {

using Eigen::internal::pand;
using Eigen::internal::pcmp_eq;
using Eigen::internal::pcmp_lt;
using Eigen::internal::pdiv;
using Eigen::internal::ploadu;
using Eigen::internal::pselect;
using Eigen::internal::pset1;
using Eigen::internal::pstoreu;
using Eigen::internal::pzero;

// One window's maximum per channel, L channels at a time (entry q of the window at h + offsets[q]), the entry
// that holds it and φ' there (d, laid out as h); a window whose maximum is NaN chooses none (−1).
template <int L>
void pool_max_lanes(const Scalar* h, const Scalar* d, const Index* offsets, Index window, Index channels, Scalar* out,
                    Scalar* choice, Scalar* gate) {
  using P = typename PacketOf<L>::type;
  for (Index c = 0; c < channels; c += L) {
    P best = ploadu<P>(h + offsets[0] + c);
    P chosen = pzero(best);
    P slope = ploadu<P>(d + offsets[0] + c);
    for (Index q = 1; q < window; ++q) {
      const P value = ploadu<P>(h + offsets[q] + c);
      const P larger = pcmp_lt(best, value);
      best = pselect(larger, value, best);
      chosen = pselect(larger, pset1<P>(static_cast<Scalar>(q)), chosen);
      slope = pselect(larger, ploadu<P>(d + offsets[q] + c), slope);
    }
    const P number = pcmp_eq(best, best);
    pstoreu(out + c, best);
    pstoreu(choice + c, pselect(number, chosen, pset1<P>(Scalar(-1))));
    pstoreu(gate + c, pand(number, slope));
  }
}

// One window's mean per channel: its entries added row by row, then divided by size².
template <int L>
void pool_mean_lanes(const Scalar* h, const Index* offsets, Index window, Index channels, Scalar* out) {
  using P = typename PacketOf<L>::type;
  const P size = pset1<P>(static_cast<Scalar>(window));
  for (Index c = 0; c < channels; c += L) {
    P sum = ploadu<P>(h + offsets[0] + c);
    for (Index q = 1; q < window; ++q) sum = sum + ploadu<P>(h + offsets[q] + c);
    pstoreu(out + c, pdiv(sum, size));
  }
}

// One window's share of dL/dz, L channels at a time (entry q at to + offsets[q]): dy · φ' at the chosen entry,
// 0 at the others (and everywhere when none was chosen).
template <int L>
void unpool_max_lanes(const Scalar* grads, const Scalar* choice, const Scalar* gate, const Index* offsets, Index window,
                      Index channels, Scalar* to) {
  using P = typename PacketOf<L>::type;
  for (Index c = 0; c < channels; c += L) {
    const P chosen = ploadu<P>(choice + c);
    const P part = ploadu<P>(grads + c) * ploadu<P>(gate + c);
    const P zero = pzero(part);
    for (Index q = 0; q < window; ++q) {
      pstoreu(to + offsets[q] + c, pselect(pcmp_eq(chosen, pset1<P>(static_cast<Scalar>(q))), part, zero));
    }
  }
}

// Average pooling's: dy / size² · φ' at every entry (φ' at slopes + offsets[q], laid out as the map).
template <int L>
void unpool_mean_lanes(const Scalar* grads, const Scalar* slopes, const Index* offsets, Index window, Index channels, Scalar* to) {
  using P = typename PacketOf<L>::type;
  const P size = pset1<P>(static_cast<Scalar>(window));
  for (Index c = 0; c < channels; c += L) {
    const P share = pdiv(ploadu<P>(grads + c), size);
    for (Index q = 0; q < window; ++q) pstoreu(to + offsets[q] + c, share * ploadu<P>(slopes + offsets[q] + c));
  }
}

// body(std::integral_constant<int, L>) with the widest strip L that divides `channels`: chosen once per image,
// so the window functions inline into the loops over an image's windows (a call per window through a pointer
// was most of pooling's time, bench/README.md round 20).
template <typename Body>
void with_lanes(Index channels, Body&& body) {
  if (lanes_dividing(channels) == kLanes) {
    body(std::integral_constant<int, kLanes>{});
  } else if (lanes_dividing(channels) == kHalfLanes) {
    body(std::integral_constant<int, kHalfLanes>{});
  } else {
    body(std::integral_constant<int, 1>{});
  }
}

// body(lanes, at, origin) for every pooled value of an image: `at` its index in the pooled image, `origin` its
// window's first entry in the convolution's map (both in values, channels last), `lanes` with_lanes' strip.
template <typename Body>
void for_each_window(Index channels, Index pooled_height, Index pooled_width, Index size, Index map_width, Body&& body) {
  with_lanes(channels, [&](auto lanes) {
    for (Index y = 0; y < pooled_height; ++y) {
      for (Index x = 0; x < pooled_width; ++x) {
        body(lanes, (y * pooled_width + x) * channels, (y * size * map_width + x * size) * channels);
      }
    }
  });
}

}  // namespace

Schema ConvBlockLayer::schema() {
  Schema s = Conv2dLayer::schema();
  Activation::declare(s);
  s.choice("pool", "max", {"max", "average"}, "the pooling after the activation: each window's maximum (per channel), or its mean");
  s.integer("pool_size", 2, "the pooling windows' side: pool_size×pool_size, side by side").min(1);
  return s;
}

ConvBlockLayer::ConvBlockLayer(const Params& params, Context& context)
    : Conv2dLayer(params, context),
      activation_(params, context),
      max_(params.str("pool") == "max"),
      size_(params.integer("pool_size")) {}

LayerShape ConvBlockLayer::build(const LayerShape& in, LayerBuilder& builder) {
  const LayerShape map = Conv2dLayer::build(in, builder);
  if (size_ > out_height() || size_ > out_width()) {
    throw Error("a " + std::to_string(size_) + "×" + std::to_string(size_) + " pooling window does not fit the " +
                std::to_string(out_height()) + "×" + std::to_string(out_width()) + " map the convolution writes; use pool_size ≤ " +
                std::to_string(std::min(out_height(), out_width())) + ", or fewer blocks before it");
  }
  pooled_height_ = out_height() / size_;
  pooled_width_ = out_width() / size_;
  offsets_.clear();
  for (Index q = 0; q < size_ * size_; ++q) offsets_.push_back(((q / size_) * out_width() + q % size_) * map.dims[0]);
  return LayerShape::image(map.dims[0], pooled_height_, pooled_width_, LayerShape::Layout::ChannelsLast);
}

void ConvBlockLayer::forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const {
  const Index n = in.rows(), C = out_channels(), positions = out_height() * out_width(), window = size_ * size_;
  const Index values_per_image = pooled_height_ * pooled_width_ * C;
  Mat& maps = tape.buffer(kMaps, parallel_chunks * positions, C);
  Mat& values = tape.buffer(kValues, parallel_chunks * positions, C);
  Mat* chunk_slopes = max_ ? &tape.buffer(kChunkSlopes, parallel_chunks * positions, C) : nullptr;
  Mat* choices = max_ ? &tape.buffer(kChoices, n, values_per_image) : nullptr;
  Mat* gates = max_ ? &tape.buffer(kGates, n, values_per_image) : nullptr;
  Mat* slopes = max_ ? nullptr : &tape.buffer(kSlopes, n, positions * C);
  const auto map_of = [&](Mat& buffer, Index chunk) { return buffer.data() + chunk * positions * C; };
  convolve(
      weights, in, tape, [&](Index, Index chunk) { return map_of(maps, chunk); },
      [&](Index i, Index chunk) {
        // z → φ(z), φ'(z): positions × C, channels last, seen as one row (the activation's loop runs along a
        // row: rows of C = 8 values would leave it a loop of 8).
        const ConstMatMap z(map_of(maps, chunk), 1, positions * C);
        const MatMap h(map_of(values, chunk), 1, positions * C);
        const MatMap d(max_ ? map_of(*chunk_slopes, chunk) : slopes->row(i).data(), 1, positions * C);
        activation_.apply(z, h, d);
        Scalar* pooled = out.row(i).data();
        for_each_window(C, pooled_height_, pooled_width_, size_, out_width(), [&](auto lanes, Index at, Index origin) {
          constexpr int L = decltype(lanes)::value;
          if (max_) {
            pool_max_lanes<L>(h.data() + origin, d.data() + origin, offsets_.data(), window, C, pooled + at,
                              choices->row(i).data() + at, gates->row(i).data() + at);
          } else {
            pool_mean_lanes<L>(h.data() + origin, offsets_.data(), window, C, pooled + at);
          }
        });
      });
}

void ConvBlockLayer::backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const {
  const Index C = out_channels(), positions = out_height() * out_width(), window = size_ * size_;
  // Windows side by side write every entry of the map they cover; an edge they drop stays 0.
  const bool covered = out_height() % size_ == 0 && out_width() % size_ == 0;
  Mat& gradients = pass.tape.buffer(kGradients, parallel_chunks * positions, C);
  const Mat* choices = max_ ? &pass.tape.buffers[kChoices] : nullptr;
  const Mat* gates = max_ ? &pass.tape.buffers[kGates] : nullptr;
  const Mat* slopes = max_ ? nullptr : &pass.tape.buffers[kSlopes];
  backward_from(pass, grads, [&](Index i, Index chunk) -> const Scalar* {
    // dL/dz of image i: positions × C, channels last.
    Scalar* G = gradients.data() + chunk * positions * C;
    if (!covered) MatMap(G, positions, C).setZero();
    const Scalar* g = dout.row(i).data();
    for_each_window(C, pooled_height_, pooled_width_, size_, out_width(), [&](auto lanes, Index at, Index origin) {
      constexpr int L = decltype(lanes)::value;
      if (max_) {
        unpool_max_lanes<L>(g + at, choices->row(i).data() + at, gates->row(i).data() + at, offsets_.data(), window, C,
                            G + origin);
      } else {
        unpool_mean_lanes<L>(g + at, slopes->row(i).data() + origin, offsets_.data(), window, C, G + origin);
      }
    });
    return G;
  });
}

}  // namespace featurelab::std_pack

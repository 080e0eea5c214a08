// Pooling over the channels-last view: each output position is the maximum (or the mean) of its window's
// size² input positions, a vector register of channels at a time.
#include "pool_layer.hpp"

#include "lane_packets.hpp"

#include <featurelab/error.hpp>
#include <featurelab/threads.hpp>

#include <algorithm>
#include <vector>

namespace featurelab::std_pack {

Schema PoolLayer::schema() {
  Schema s;
  s.choice("mode", "max", {"max", "average"}, "the maximum of each window (per channel), or its mean");
  s.integer("size", 2, "the windows' side: size×size").min(1);
  s.integer("stride", Automatic{"size: windows side by side"}, "the windows' step along each axis").min(1);
  return s;
}

PoolLayer::PoolLayer(const Params& params, Context&)
    : max_(params.str("mode") == "max"), size_(params.integer("size")), stride_(params.integer_or_auto("stride").value_or(size_)) {}

LayerShape PoolLayer::build(const LayerShape& in, LayerBuilder&) {
  if (in.layout != LayerShape::Layout::ChannelsLast) {
    const char* what = in.layout == LayerShape::Layout::Flat            ? "flat features"
                       : in.layout == LayerShape::Layout::ChannelsFirst ? "a channels-first image (the data's own layout)"
                                                                        : "a sequence";
    throw Error(std::string("pool takes the channels-last images that conv2d writes, not ") + what +
                "; put it after a conv2d (on flat data, conv2d's in_channels and height say how to read the rows as images)");
  }
  channels_ = in.dims[0];
  height_ = in.dims[1];
  width_ = in.dims[2];
  if (size_ > height_ || size_ > width_) {
    throw Error("a " + std::to_string(size_) + "×" + std::to_string(size_) + " window does not fit the " +
                std::to_string(height_) + "×" + std::to_string(width_) + " map; use size ≤ " +
                std::to_string(std::min(height_, width_)) + ", or fewer conv2d → pool blocks before it");
  }
  out_height_ = (height_ - size_) / stride_ + 1;
  out_width_ = (width_ - size_) / stride_ + 1;
  offsets_.clear();
  for (Index q = 0; q < size_ * size_; ++q) offsets_.push_back(((q / size_) * width_ + q % size_) * channels_);
  return LayerShape::image(channels_, out_height_, out_width_, LayerShape::Layout::ChannelsLast);
}

namespace {

using Eigen::internal::pand;
using Eigen::internal::pandnot;
using Eigen::internal::pcmp_eq;
using Eigen::internal::pcmp_lt;
using Eigen::internal::pdiv;
using Eigen::internal::pload1;
using Eigen::internal::ploadu;
using Eigen::internal::por;
using Eigen::internal::pselect;
using Eigen::internal::pset1;
using Eigen::internal::pstoreu;
using Eigen::internal::pzero;

// One window's output, L channels at a time: its q-th input position (row by row) at origin + offsets[q].
template <int L>
void pool_window(bool max, const Scalar* origin, const Index* offsets, Index window, Index channels, Scalar* out) {
  using P = typename PacketOf<L>::type;
  const P size = pset1<P>(static_cast<Scalar>(window));
  for (Index c = 0; c < channels; c += L) {
    P best = ploadu<P>(origin + offsets[0] + c);
    for (Index q = 1; q < window; ++q) {
      const P value = ploadu<P>(origin + offsets[q] + c);
      // Strictly larger (a NaN is never taken over, nor replaced), as the backward pass's first-equal search assumes.
      best = max ? pselect(pcmp_lt(best, value), value, best) : best + value;
    }
    pstoreu(out + c, max ? best : pdiv(best, size));
  }
}

// One window's share of the input's gradient, L channels at a time: entry q's at to + offsets[q];
// `add` when windows overlap (the rows were zeroed and each window adds to them), else each row is written once.
// Max: the first entry equal to the maximum per channel takes the whole gradient; a window holding NaN sends it
// nowhere. Average: 1/size² to each entry.
template <int L>
void unpool_window(bool max, bool add, const Scalar* origin, Scalar* to, const Index* offsets, Index window, Index channels,
                   const Scalar* maxima, const Scalar* grads) {
  using P = typename PacketOf<L>::type;
  const P size = pset1<P>(static_cast<Scalar>(window));
  for (Index c = 0; c < channels; c += L) {
    const P g = ploadu<P>(grads + c);
    const P y = ploadu<P>(maxima + c);
    const P share = pdiv(g, size);
    P taken = pzero(g);
    for (Index q = 0; q < window; ++q) {
      P part = share;
      if (max) {
        const P hit = pandnot(pcmp_eq(ploadu<P>(origin + offsets[q] + c), y), taken);
        part = pand(hit, g);
        taken = por(taken, hit);
      }
      Scalar* entry = to + offsets[q] + c;
      pstoreu(entry, add ? ploadu<P>(entry) + part : part);
    }
  }
}

}  // namespace

void PoolLayer::forward(const LayerWeights&, ConstMatRef in, MatRef out, LayerTape&) const {
  // Nothing kept for backward: an evaluation pass (most of a run's forward passes) pays for the pooling alone.
  const Index n = in.rows(), C = channels_, window = size_ * size_;
  const auto pool = lanes_dividing(C) == kLanes       ? pool_window<kLanes>
                    : lanes_dividing(C) == kHalfLanes ? pool_window<kHalfLanes>
                                                      : pool_window<1>;
  parallel_over_chunks(n, [&](Index, Index begin, Index end) {
    for (Index s = begin; s < end; ++s) {
      for (Index y = 0; y < out_height_; ++y) {
        for (Index x = 0; x < out_width_; ++x) {
          pool(max_, in.data() + window_row(s, y, x, 0) * C, offsets_.data(), window, C,
               out.data() + ((s * out_height_ + y) * out_width_ + x) * C);
        }
      }
    }
  });
}

void PoolLayer::backward(const LayerPass& pass, ConstMatRef dout, LayerGrads&) const {
  if (!pass.want_din) return;
  const Index n = pass.in.rows(), C = channels_, window = size_ * size_, pixels = height_ * width_;
  const auto unpool = lanes_dividing(C) == kLanes       ? unpool_window<kLanes>
                      : lanes_dividing(C) == kHalfLanes ? unpool_window<kHalfLanes>
                                                        : unpool_window<1>;
  // Side by side windows that cover the map write each input entry once; otherwise the entries no window reaches
  // must be 0 and overlapping windows add.
  const bool overlap = stride_ < size_;
  const bool covered = stride_ == size_ && height_ % size_ == 0 && width_ % size_ == 0;
  parallel_over_chunks(n, [&](Index, Index begin, Index end) {
    for (Index s = begin; s < end; ++s) {
      if (!covered) MatMap(pass.din.data() + s * pixels * C, pixels, C).setZero();
      for (Index y = 0; y < out_height_; ++y) {
        for (Index x = 0; x < out_width_; ++x) {
          const Index at = window_row(s, y, x, 0) * C, o = ((s * out_height_ + y) * out_width_ + x) * C;
          unpool(max_, overlap, pass.in.data() + at, pass.din.data() + at, offsets_.data(), window, C, pass.out.data() + o,
                 dout.data() + o);
        }
      }
    }
  });
}

}  // namespace featurelab::std_pack

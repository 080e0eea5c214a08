// Pooling as row operations over the (n·H·W)×C channels-last view: each output row is the maximum (or the
// mean) of its window's size² rows, all channels at once.
#include "pool_layer.hpp"

#include <featurelab/error.hpp>
#include <featurelab/threads.hpp>

#include <algorithm>

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
  return LayerShape::image(channels_, out_height_, out_width_, LayerShape::Layout::ChannelsLast);
}

void PoolLayer::forward(const LayerWeights&, ConstMatRef in, MatRef out, LayerTape&) const {
  const Index n = in.rows(), C = channels_, Ho = out_height_, Wo = out_width_, window = size_ * size_;
  const ConstMatMap X(in.data(), n * height_ * width_, C);
  MatMap Y(out.data(), n * Ho * Wo, C);
  // Nothing kept for backward: an evaluation pass (most of a run's forward passes) pays for the pooling alone.
  parallel_over_chunks(n, [&](Index, Index begin, Index end) {
    for (Index s = begin; s < end; ++s) {
      for (Index y = 0; y < Ho; ++y) {
        for (Index x = 0; x < Wo; ++x) {
          auto best = Y.row((s * Ho + y) * Wo + x).array();
          best = X.row(window_row(s, y, x, 0)).array();
          for (Index q = 1; q < window; ++q) {
            if (max_) {
              // Strictly larger, as the backward pass's first-equal search assumes.
              const auto value = X.row(window_row(s, y, x, q)).array();
              best = (value > best).select(value, best);
            } else {
              best += X.row(window_row(s, y, x, q)).array();
            }
          }
          if (!max_) best /= static_cast<Scalar>(window);
        }
      }
    }
  });
}

void PoolLayer::backward(const LayerPass& pass, ConstMatRef dout, LayerGrads&) const {
  if (!pass.want_din) return;
  const Index n = pass.in.rows(), C = channels_, Ho = out_height_, Wo = out_width_, window = size_ * size_;
  const ConstMatMap G(dout.data(), n * Ho * Wo, C);
  MatMap D(pass.din.data(), n * height_ * width_, C);
  const ConstMatMap X(pass.in.data(), n * height_ * width_, C), Y(pass.out.data(), n * Ho * Wo, C);
  // Max: per loop chunk, which channels of the current window have found their maximum.
  Mat& claimed = pass.tape.buffer(0, parallel_chunks, C);
  // Windows may overlap (stride < size): each image's gradient is zeroed, then every window's share added.
  parallel_over_chunks(n, [&](Index chunk, Index begin, Index end) {
    for (Index s = begin; s < end; ++s) {
      D.middleRows(s * height_ * width_, height_ * width_).setZero();
      for (Index y = 0; y < Ho; ++y) {
        for (Index x = 0; x < Wo; ++x) {
          const Index o = (s * Ho + y) * Wo + x;
          if (max_) {
            // The first entry of the window (row by row) equal to the maximum, the one forward's comparisons kept
            // among ties, per channel; a window holding NaN sends its gradient nowhere.
            auto taken = claimed.row(chunk).array();
            taken.setZero();
            for (Index q = 0; q < window; ++q) {
              const Index r = window_row(s, y, x, q);
              const auto hit = (X.row(r).array() == Y.row(o).array()) && (taken == Scalar(0));
              D.row(r).array() += hit.select(G.row(o).array(), Scalar(0));
              taken = hit.select(Scalar(1), taken);
            }
            continue;
          }
          for (Index q = 0; q < window; ++q) D.row(window_row(s, y, x, q)) += G.row(o) / static_cast<Scalar>(window);
        }
      }
    }
  });
}

}  // namespace featurelab::std_pack

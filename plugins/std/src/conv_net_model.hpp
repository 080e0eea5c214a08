// Model `conv-net`: a small convolutional network for images, the "std CNN" of the image pipelines
// (Chidambaram et al. Table 1 on Fashion-MNIST, Li et al. Fig. 3 middle on MNIST). L blocks of
//   convolution k×k (same padding, stride 1, bias) → ReLU → 2×2 pooling (max or average, stride 2;
//   an odd edge's last row or column is dropped)
// then a linear head on the flattened features. Each convolution is one product: the batch's k×k
// patches as an (n·H·W)×(k²·C) matrix (im2col) times the filters' transpose.
// Layout: an input row is C×H×W, channel-major (a grey image's pixels row by row); inside, each
// block's activations are (n·H·W)×C row-major, rows the positions of each image in turn, so the
// features the head reads are that buffer viewed as n×(H·W·C).
#pragma once

#include <featurelab/model.hpp>

#include <vector>

namespace featurelab::std_pack {

class ConvNetModel : public Model {
 public:
  static constexpr Doc kDoc =
      "Small CNN for images: blocks of k×k convolution (same padding) → ReLU → 2×2 max or average pooling, then a "
      "linear head; convolutions as im2col products. Input rows C×H×W. Hook `features`: the flattened input of the "
      "head (the penultimate layer).";
  static Schema schema();
  static ContractData contract_data();
  static std::map<std::string, Value> test_params();
  ConvNetModel(const Params& params, Context& context);

  Index outputs() const override { return outputs_; }
  void init(Rng& rng) override;
  void forward(ConstMatRef X, MatRef out) override;                        // X: n×(C·H·W) -> n×K
  void backward(ConstMatRef X, ConstMatRef dout, VecRef grad) override;    // dout: n×K
  void input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) override;
  std::vector<HookSpec> hook_points() const override;
  void hook(const std::string& name, ConstMatRef X, Mat& out) override;
  void hook_backward(const std::string& name, ConstMatRef X, ConstMatRef dhook, VecRef grad) override;

 private:
  struct Block {
    Index in_channels = 0, out_channels = 0;
    Index height = 0, width = 0;            // input (and convolution output) size
    Index pooled_height = 0, pooled_width = 0;
    BlockHandle filters, bias;              // out×(k²·in), 1×out
    Mat patches;                            // (n·H·W)×(k²·in): im2col of the block's input
    Mat pre;                                // (n·H·W)×out: convolution + bias
    Mat pooled;                             // (n·Ho·Wo)×out: after ReLU and pooling
    std::vector<Index> winner;              // max pooling: the row of `pre` each pooled entry came from
    Mat dpre, dpatches, dpooled;            // backward's buffers, reused while the batch size stays
  };

  // The patches of block b's input: the data X (C×H×W rows) for b = 0, block b−1's pooled output else.
  void im2col(std::size_t b, ConstMatRef X);
  // Adds the patches' gradient back onto block b's input: dX (C×H×W rows) for b = 0, else `dinput`.
  void col2im(std::size_t b, const Mat& dpatches, MatRef dinput, bool image_layout) const;
  void forward_features(ConstMatRef X);  // every block; features_ then views the last pooled buffer
  // From d(features) back through the blocks: parameter gradients into grad when it is non-empty
  // (added when `accumulate`), the input gradient into dX when it is non-null.
  void backward_blocks(ConstMatRef dfeatures, VecRef grad, bool accumulate, MatRef* dX);
  Index feature_size() const;

  std::vector<Block> blocks_;
  BlockHandle head_, head_bias_;  // K×F, 1×K
  Index outputs_ = 1, in_channels_ = 1, height_ = 0, width_ = 0, kernel_ = 3;
  bool max_pool_ = true;
  double init_scale_ = 1;
  Mat features_;                  // n×F, a copy of the last block's pooled output
  Mat dfeatures_;                 // n×F
};

}  // namespace featurelab::std_pack

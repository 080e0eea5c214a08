// Model `conv-net`: a small convolutional network for images, the "std CNN" of the image pipelines
// (Chidambaram et al. Table 1 on Fashion-MNIST, Li et al. Fig. 3 middle on MNIST). L blocks of
//   convolution k×k (same padding, stride 1, bias) → activation (ReLU by default) → 2×2 pooling (max or average, stride 2;
//   an odd edge's last row or column is dropped)
// then, with hidden = h > 0, a fully connected layer with the same activation (hook `hidden`: n×h, the projection a
// contrastive loss reads, as SimCLR's head), and a linear head on the flattened features (or on the hidden layer).
// Each convolution is one product: the batch's k×k
// patches as an (n·H·W)×(k²·C) matrix (im2col) times the filters' transpose.
// Layout: an input row is C×H×W, channel-major (a grey image's pixels row by row); inside, each
// block's activations are (n·H·W)×C row-major, rows the positions of each image in turn, so the
// features the head reads are that buffer viewed as n×(H·W·C). A block first copies its input into
// a zero-bordered (n·(H+k−1)·(W+k−1))×C buffer, so that each patch row is k runs of k·C contiguous
// floats: a filter's columns are ordered (dy, dx, channel).
#pragma once

#include <featurelab/activation.hpp>
#include <featurelab/contract.hpp>
#include <featurelab/model.hpp>

#include <vector>

namespace featurelab::std_pack {

class ConvNetModel : public Model {
 public:
  static constexpr Doc kDoc =
      "Small CNN for images: blocks of k×k convolution (same padding) → activation (ReLU) → 2×2 max or average pooling, then a "
      "linear head (optionally after a fully connected hidden layer); convolutions as im2col products. Input rows "
      "C×H×W. Hooks `features`: the flattened pooled output of the last block; `hidden`: the hidden layer.";
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
  // A buffer that keeps its storage when a smaller batch follows a larger one (an evaluation's last
  // chunk, PGD's batches beside training's): views of its first rows×cols entries, row-major.
  struct Buffer {
    Mat storage;
    MatMap view(Index rows, Index cols) {
      if (storage.size() < rows * cols) storage.resize(rows, cols);
      return MatMap(storage.data(), rows, cols);
    }
    ConstMatMap read(Index rows, Index cols) const { return ConstMatMap(storage.data(), rows, cols); }
  };

  struct Block {
    Index in_channels = 0, out_channels = 0;
    Index height = 0, width = 0;            // input (and convolution output) size
    Index pooled_height = 0, pooled_width = 0;
    Index patch_size = 0;                   // k²·in
    BlockHandle filters, bias;              // out×(k²·in), 1×out
    Index images = 0;                       // in the chunk the buffers hold
    Buffer patches;                         // (n·H·W)×(k²·in): im2col of the block's input
    Buffer pre;                             // (n·H·W)×out: convolution + bias
    Buffer act, slope;                      // (n·H·W)×out: φ(pre), φ'(pre)
    Buffer pooled;                          // (n·Ho·Wo)×out: after ReLU and pooling
    Buffer padded;                          // (n·Hp·Wp)×in: the input with a zero border of k/2
    Buffer dpre, dpatches, dpooled, dpadded;  // backward's
    Index positions() const { return images * height * width; }
    Index pooled_positions() const { return images * pooled_height * pooled_width; }
  };

  // The patches of block b's input: the data X (C×H×W rows) for b = 0, block b−1's pooled output else.
  void im2col(std::size_t b, ConstMatRef X);
  // The gradient of block b's input from its patches' gradient: written to dX (C×H×W rows) for b = 0,
  // else to the previous block's d(pooled).
  void col2im(std::size_t b, ConstMatRef dpatches, MatRef dinput, bool image_layout);
  void forward_features(ConstMatRef X);  // every block; features_ then views the last pooled buffer
  // From d(features) back through the blocks: parameter gradients into grad when it is non-empty
  // (added when `accumulate`), the input gradient into dX when it is non-null.
  void backward_blocks(ConstMatRef dfeatures, VecRef grad, bool accumulate, MatRef* dX);
  Index feature_size() const;
  // The hidden layer of the chunk in features_ (hidden_ > 0): hidden_act_ and its slope; top() is the head's input.
  void forward_hidden();
  const Mat& top() const { return hidden_ > 0 ? hidden_act_ : features_; }
  // With the hidden layer: from d(top) of the chunk in features_ to d(features) in dfeatures_, adding (or, unless accumulate, writing)
  // the hidden layer's parameter gradients into grad when it is non-empty.
  MatMap backward_hidden(ConstMatRef dtop, VecRef grad, bool accumulate);

  // Up to this many images run as one batch, so that a block's im2col (32 images of 28×28 with 5×5
  // filters over 8 channels: 5 MB) stays near the cache: on Fashion-MNIST's 2×28×28 inputs, chunks of 32
  // train 25 % faster than chunks of 256, although a batch larger than a chunk (an evaluation, a
  // training batch of 750) recomputes each chunk's forward pass in backward().
  static constexpr Index kChunkRows = 32;
  // forward() over these rows (at most kChunkRows) left its caches valid for backward(); 0: not.
  Index cached_rows_ = 0;
  const Scalar* cached_input_ = nullptr;

  Activation activation_;
  std::vector<Block> blocks_;
  BlockHandle hidden_w_, hidden_b_;  // h×F, 1×h (hidden_ > 0)
  BlockHandle head_, head_bias_;  // K×F (K×h with the hidden layer), 1×K
  Index hidden_ = 0;
  Mat hidden_pre_, hidden_act_, hidden_slope_, dhidden_, dtop_;  // rows×h
  Index outputs_ = 1, in_channels_ = 1, height_ = 0, width_ = 0, kernel_ = 3;
  bool max_pool_ = true;
  double init_scale_ = 1;
  Mat features_;                  // n×F, a copy of the last block's pooled output
  Buffer dfeatures_;              // n×F
};

}  // namespace featurelab::std_pack

// Model `conv-net`: a preset of std's layers, the small convolutional network of the image pipelines (Chidambaram
// et al. Table 1 on Fashion-MNIST, Li et al. Fig. 3 middle on MNIST, the contrastive digits proxies). L blocks of
//   conv2d k×k (same padding, stride 1, bias) → activation (ReLU by default) → 2×2 pool (max or average; an odd
//   edge's last row or column is dropped)
// each one `conv-block` layer (the three in one pass over each image; hook convN: the block's pooled maps), then
// flatten (hook `features`: the pooled maps of the last block, channels last), with hidden = h > 0 a linear
// layer of h units and the same activation (hook `hidden`, the projection a contrastive loss reads), and a linear
// head. Nothing here computes a gradient: the layers do (featurelab/network.hpp), and a batch too large for one
// pass runs in chunks of rows. Blocks keep the names the hand-written conv-net gave them (conv1.W, conv1.b, …,
// hidden.W, hidden.b, head.W, head.b) and its initialisation, drawn in its order: He's N(0, 2/fan-in)·init_scale²
// for the filters and the hidden layer, N(0, 1/fan-in)·init_scale² for the head, biases 0.
#pragma once

#include <featurelab/contract.hpp>
#include <featurelab/network.hpp>

namespace featurelab::std_pack {

class ConvNetModel : public Network {
 public:
  static constexpr Doc kDoc =
      "Small CNN for images, a preset of std's layers: blocks of k×k conv2d (same padding) → activation (ReLU) → 2×2 "
      "max or average pool, then flatten and a linear head (optionally after a fully connected hidden layer). Input "
      "rows C×H×W. Hooks `features`: the flattened pooled output of the last block; `hidden`: the hidden layer.";
  static Schema schema();
  static ContractData contract_data();
  static std::map<std::string, Value> test_params();
  ConvNetModel(const Params& params, Context& context);

  void init(Rng& rng) override;

 private:
  // The layers the parameters describe, made here (their parameters resolved against each layer's schema).
  static LayerStack layers_of(const Params& params, Context& context);

  double init_scale_;
  std::size_t conv_blocks_;
  bool hidden_;
};

}  // namespace featurelab::std_pack

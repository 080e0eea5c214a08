// Layer `linear`: y = x Wᵀ + b on a flat input (D -> out), or on every token of a sequence (T×d -> T×out),
// as PyTorch's nn.Linear. Blocks W (out×in) and b (1×out).
//
// Initialisation (init):
//   fan-in       W ~ N(0, 1/in)                           (LeCun; std two-layer's default 1/√D)
//   he           W ~ N(0, 2/in)
//   xavier       W ~ N(0, 2/(in + out))
//   uniform      W, b ~ U(±1/√in)                         (PyTorch's default)
//   balanced     one output; w_j = +s for the first half of the inputs, −s for the rest (odd: the last 0),
//                s = 1/√in: Frei, Chatterji & Bartlett (2022) §2.1's fixed second layer a_j = ±1/√m
//   random-sign  w_kj = ±s i.i.d.
//   per-class    the inputs split into `out` consecutive groups; group c feeds output c with weight s
//                (the k-class readouts of Li et al. 2023 and Chidambaram et al. 2023)
//   zero         W = 0
// init_std, when a number, replaces the rule's std (or s). The bias starts at 0, or N(0, bias_init_std²).
#pragma once

#include <featurelab/layer.hpp>
#include <featurelab/params.hpp>

#include <optional>
#include <string>

namespace featurelab::std_pack {

class LinearLayer : public Layer {
 public:
  static constexpr Doc kDoc =
      "Affine map y = x Wᵀ + b on flat inputs or on every token of a sequence; init fan-in, He, Xavier, "
      "uniform (PyTorch), balanced ±1/√m, random-sign, per-class or zero; trainable or fixed.";
  static Schema schema();
  LinearLayer(const Params& params, Context& context);

  LayerShape build(const LayerShape& in, LayerBuilder& builder) override;
  void init(const LayerWeights& weights, Rng& rng) override;
  void forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const override;
  void backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const override;

 private:
  std::optional<std::int64_t> requested_out_;
  bool bias_;
  bool trainable_;
  std::string init_;
  std::optional<double> init_std_;
  double bias_init_std_;
  Index in_ = 0, out_ = 0, tokens_ = 1;  // a sequence's tokens, each mapped alone
  LayerBlock W_, b_;
};

}  // namespace featurelab::std_pack

// Layer `patches`: one sub-network f applied to every patch of multi-view data, summed over the patches:
//   y = Σ_p c_p f(x^(p))        x: a sequence of P patches of width d, f: d -> k (flat)
// with c_p the data's patch counts when the layer reads the data itself (DataShape::patch_counts: a
// patch that stands for several equal ones, as Chidambaram et al. 2023's Def. 4.1 noise patches are
// stored), else 1. Chidambaram et al.'s 2-layer CNN (Def. 4.2, Eq. 4.1),
//   g^y(x) = Σ_r Σ_p ReLU~(<w_{y,r}, x^(p)>),
// is patches { linear (k·m, no bias), smoothed-relu, linear (k, per-class ones, fixed) }. The patches of a
// batch are one (n·P)×d matrix, a view of the n×(P·d) input: f runs once, as one batch of n·P rows.
#pragma once

#include <featurelab/layer_stack.hpp>

#include <vector>

namespace featurelab::std_pack {

class PatchesLayer : public Layer {
 public:
  static constexpr Doc kDoc =
      "One sub-network applied to every patch of a sequence of patches, summed over the patches (weighted by the "
      "data's patch counts): the patch CNN of Chidambaram et al. (2023) Def. 4.2.";
  static Schema schema();
  static std::map<std::string, Value> test_params();
  PatchesLayer(const Params& params, Context& context);

  LayerShape build(const LayerShape& in, LayerBuilder& builder) override;
  void forward(const LayerWeights& weights, ConstMatRef in, MatRef out, LayerTape& tape) const override;
  void backward(const LayerPass& pass, ConstMatRef dout, LayerGrads& grads) const override;
  std::vector<const LayerStack*> sub_stacks() const override { return {&body_}; }

 private:
  LayerStack body_;
  Index patches_ = 0, patch_width_ = 0, outputs_ = 0;
  std::vector<Scalar> counts_;  // c_p, P of them
};

}  // namespace featurelab::std_pack

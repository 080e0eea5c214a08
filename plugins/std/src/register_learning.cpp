// Registers the std models, losses and optimizers.
#include "info_nce.hpp"
#include "linear_model.hpp"
#include "optimizers.hpp"
#include "output_losses.hpp"
#include "registration.hpp"
#include "regularizers.hpp"
#include "tanh_activation.hpp"
#include "two_layer.hpp"

namespace featurelab::std_pack {

void register_learning(PackBuilder& pack) {
  pack.add<LinearModel>("linear");
  pack.add<TwoLayerNet>("two-layer");
  pack.add<RandomFeatures>("random-features");

  pack.add<CrossEntropyLoss>("cross-entropy");
  pack.add<LogisticLoss>("logistic");
  pack.add<HingeLoss>("hinge");
  pack.add<SquaredLoss>("squared");
  pack.add<InfoNce>("info-nce");

  pack.add<GradientDescent>("gd");
  pack.add<Sgd>("sgd");
  pack.add<Adam>("adam");
  pack.add<AdamW>("adamw");

  pack.add<L2Penalty>("l2");
  pack.add<L1Penalty>("l1");
  pack.add<NuclearNormPenalty>("nuclear-norm");

  pack.add<TanhActivation>("tanh");
}

}  // namespace featurelab::std_pack

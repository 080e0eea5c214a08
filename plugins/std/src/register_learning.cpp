// Registers the std models, losses and optimizers.
#include "linear_model.hpp"
#include "optimizers.hpp"
#include "output_losses.hpp"
#include "registration.hpp"
#include "regularizers.hpp"
#include "two_layer.hpp"

namespace featurelab::std_pack {

void register_learning(PackBuilder& pack) {
  pack.add<LinearModel>("linear", LinearModel::kDoc, LinearModel::schema());
  pack.add<TwoLayerNet>("two-layer", TwoLayerNet::kDoc, TwoLayerNet::schema());
  pack.add<RandomFeatures>("random-features", RandomFeatures::kDoc, RandomFeatures::schema());

  pack.add<CrossEntropyLoss>("cross-entropy", CrossEntropyLoss::kDoc, CrossEntropyLoss::schema());
  pack.add<LogisticLoss>("logistic", LogisticLoss::kDoc, LogisticLoss::schema());
  pack.add<HingeLoss>("hinge", HingeLoss::kDoc, HingeLoss::schema());
  pack.add<SquaredLoss>("squared", SquaredLoss::kDoc, SquaredLoss::schema());

  pack.add<GradientDescent>("gd", GradientDescent::kDoc, GradientDescent::schema());
  pack.add<Sgd>("sgd", Sgd::kDoc, Sgd::schema());
  pack.add<Adam>("adam", Adam::kDoc, Adam::schema());
  pack.add<AdamW>("adamw", AdamW::kDoc, AdamW::schema());

  pack.add<L2Penalty>("l2", L2Penalty::kDoc, L2Penalty::schema());
  pack.add<L1Penalty>("l1", L1Penalty::kDoc, L1Penalty::schema());
  pack.add<NuclearNormPenalty>("nuclear-norm", NuclearNormPenalty::kDoc, NuclearNormPenalty::schema());
}

}  // namespace featurelab::std_pack

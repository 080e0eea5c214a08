// Registers the std models, losses, optimizers, regularizers and activations.
#include "adam_optimizer.hpp"
#include "adamw_optimizer.hpp"
#include "contrastive_views_regularizer.hpp"
#include "conv_net_model.hpp"
#include "cross_entropy_loss.hpp"
#include "gd_optimizer.hpp"
#include "gelu_activation.hpp"
#include "hinge_loss.hpp"
#include "info_nce_loss.hpp"
#include "l1_regularizer.hpp"
#include "l2_regularizer.hpp"
#include "linear_model.hpp"
#include "logistic_loss.hpp"
#include "nuclear_norm_regularizer.hpp"
#include "random_features_model.hpp"
#include "registration.hpp"
#include "sgd_optimizer.hpp"
#include "softplus_activation.hpp"
#include "squared_loss.hpp"
#include "tanh_activation.hpp"
#include "two_layer_model.hpp"

namespace featurelab::std_pack {

void register_learning(PackBuilder& pack) {
  pack.add<LinearModel>("linear");
  pack.add<TwoLayerModel>("two-layer");
  pack.add<ConvNetModel>("conv-net");
  pack.add<RandomFeaturesModel>("random-features");

  pack.add<CrossEntropyLoss>("cross-entropy");
  pack.add<LogisticLoss>("logistic");
  pack.add<HingeLoss>("hinge");
  pack.add<SquaredLoss>("squared");
  pack.add<InfoNceLoss>("info-nce");

  pack.add<GdOptimizer>("gd");
  pack.add<SgdOptimizer>("sgd");
  pack.add<AdamOptimizer>("adam");
  pack.add<AdamwOptimizer>("adamw");

  pack.add<L2Regularizer>("l2");
  pack.add<L1Regularizer>("l1");
  pack.add<NuclearNormRegularizer>("nuclear-norm");
  pack.add<ContrastiveViewsRegularizer>("contrastive-views");

  pack.add<TanhActivation>("tanh");
  pack.add<GeluActivation>("gelu");
  pack.add<SoftplusActivation>("softplus");
}

}  // namespace featurelab::std_pack

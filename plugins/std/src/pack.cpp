// The std pack: generic distributions, models, losses, optimizers, trainer, probes and attacks.
#include "accuracy_probe.hpp"
#include "adam.hpp"
#include "cross_entropy_loss.hpp"
#include "fgsm_attack.hpp"
#include "gaussian_mixture.hpp"
#include "gd.hpp"
#include "hinge_loss.hpp"
#include "linear_model.hpp"
#include "logistic_loss.hpp"
#include "loss_probe.hpp"
#include "neuron_feature_cosine_probe.hpp"
#include "pgd_l2_attack.hpp"
#include "random_features.hpp"
#include "robust_accuracy_probe.hpp"
#include "sgd.hpp"
#include "squared_loss.hpp"
#include "standard_trainer.hpp"
#include "two_layer.hpp"
#include "weight_norms_probe.hpp"
#include "xor_clusters.hpp"

#include <featurelab/pack.hpp>

using namespace featurelab::std_pack;

FEATURELAB_PACK("std", "0.1.0") {
  pack.add<GaussianMixture>("gaussian-mixture", GaussianMixture::kDoc, GaussianMixture::schema());
  pack.add<XorClusters>("xor-clusters", XorClusters::kDoc, XorClusters::schema());

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

  pack.add<StandardTrainer>("standard", StandardTrainer::kDoc, StandardTrainer::schema());

  pack.add<AccuracyProbe>("accuracy", AccuracyProbe::kDoc, AccuracyProbe::schema());
  pack.add<LossProbe>("loss", LossProbe::kDoc, LossProbe::schema());
  pack.add<WeightNormsProbe>("weight-norms", WeightNormsProbe::kDoc, WeightNormsProbe::schema());
  pack.add<NeuronFeatureCosineProbe>("neuron-feature-cosine", NeuronFeatureCosineProbe::kDoc,
                                     NeuronFeatureCosineProbe::schema());
  pack.add<RobustAccuracyProbe>("robust-accuracy", RobustAccuracyProbe::kDoc,
                                RobustAccuracyProbe::schema());

  pack.add<PgdL2Attack>("pgd-l2", PgdL2Attack::kDoc, PgdL2Attack::schema());
  pack.add<FgsmAttack>("fgsm", FgsmAttack::kDoc, FgsmAttack::schema());
}

// Registers the std distributions, trainers, probes, attacks and callbacks.
#include "accuracy_probe.hpp"
#include "checkpoint_callback.hpp"
#include "early_stopping_callback.hpp"
#include "few_label_probe.hpp"
#include "fgsm_attack.hpp"
#include "gaussian_mixture_distribution.hpp"
#include "gradient_clipping_callback.hpp"
#include "loss_probe.hpp"
#include "neuron_feature_cosine_probe.hpp"
#include "pgd_l2_attack.hpp"
#include "pretrain_finetune_trainer.hpp"
#include "registration.hpp"
#include "robust_accuracy_probe.hpp"
#include "standard_trainer.hpp"
#include "weight_norms_probe.hpp"
#include "xor_clusters_distribution.hpp"

namespace featurelab::std_pack {

void register_experiment(PackBuilder& pack) {
  pack.add<GaussianMixtureDistribution>("gaussian-mixture");
  pack.add<XorClustersDistribution>("xor-clusters");

  pack.add<StandardTrainer>("standard");
  pack.add<PretrainFinetuneTrainer>("pretrain-finetune");

  pack.add<AccuracyProbe>("accuracy");
  pack.add<LossProbe>("loss");
  pack.add<WeightNormsProbe>("weight-norms");
  pack.add<NeuronFeatureCosineProbe>("neuron-feature-cosine");
  pack.add<RobustAccuracyProbe>("robust-accuracy");
  pack.add<FewLabelProbe>("few-label-probe");

  pack.add<PgdL2Attack>("pgd-l2");
  pack.add<FgsmAttack>("fgsm");

  pack.add<EarlyStoppingCallback>("early-stopping");
  pack.add<GradientClippingCallback>("gradient-clipping");
  pack.add<CheckpointCallback>("checkpoint");
}

}  // namespace featurelab::std_pack

// Registers the std distributions, trainer, probes and attacks.
#include "attacks.hpp"
#include "distributions.hpp"
#include "probes.hpp"
#include "registration.hpp"
#include "standard_trainer.hpp"

namespace featurelab::std_pack {

void register_experiment(PackBuilder& pack) {
  pack.add<GaussianMixture>("gaussian-mixture", GaussianMixture::kDoc, GaussianMixture::schema());
  pack.add<XorClusters>("xor-clusters", XorClusters::kDoc, XorClusters::schema());

  pack.add<StandardTrainer>("standard", StandardTrainer::kDoc, StandardTrainer::schema());

  pack.add<AccuracyProbe>("accuracy", AccuracyProbe::kDoc, AccuracyProbe::schema());
  pack.add<LossProbe>("loss", LossProbe::kDoc, LossProbe::schema());
  pack.add<WeightNormsProbe>("weight-norms", WeightNormsProbe::kDoc, WeightNormsProbe::schema());
  pack.add<NeuronFeatureCosineProbe>("neuron-feature-cosine", NeuronFeatureCosineProbe::kDoc,
                                     NeuronFeatureCosineProbe::schema());
  pack.add<RobustAccuracyProbe>("robust-accuracy", RobustAccuracyProbe::kDoc, RobustAccuracyProbe::schema());

  pack.add<PgdL2Attack>("pgd-l2", PgdL2Attack::kDoc, PgdL2Attack::schema());
  pack.add<FgsmAttack>("fgsm", FgsmAttack::kDoc, FgsmAttack::schema());
}

}  // namespace featurelab::std_pack

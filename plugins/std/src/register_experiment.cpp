// Registers the std distributions, trainer, probes and attacks.
#include "attacks.hpp"
#include "distributions.hpp"
#include "probes.hpp"
#include "registration.hpp"
#include "standard_trainer.hpp"

namespace featurelab::std_pack {

void register_experiment(PackBuilder& pack) {
  pack.add<GaussianMixture>("gaussian-mixture");
  pack.add<XorClusters>("xor-clusters");

  pack.add<StandardTrainer>("standard");

  pack.add<AccuracyProbe>("accuracy");
  pack.add<LossProbe>("loss");
  pack.add<WeightNormsProbe>("weight-norms");
  pack.add<NeuronFeatureCosineProbe>("neuron-feature-cosine");
  pack.add<RobustAccuracyProbe>("robust-accuracy");

  pack.add<PgdL2Attack>("pgd-l2");
  pack.add<FgsmAttack>("fgsm");
}

}  // namespace featurelab::std_pack

// Chapter 6's components: domain generalization via nuclear-norm regularization (ERM-NU). The
// regularizers themselves (l2, l1, nuclear-norm) are std components, usable by any model and loss.
#include "../chapters.hpp"
#include "dg_theory_model.hpp"
#include "dg_toy_2d.hpp"
#include "feature_support.hpp"
#include "feature_weights.hpp"
#include "iht_rank.hpp"
#include "linear_features.hpp"
#include "ood_accuracy.hpp"
#include "stable_rank.hpp"

namespace featurelab::representation_theory_pack {

void register_chapter6(featurelab::PackBuilder& pack) {
  pack.add<DgTheoryModel>("dg-theory-model");
  pack.add<DgToy2d>("dg-toy-2d");
  pack.add<FeatureWeights>("feature-weights");
  pack.add<LinearFeatures>("linear-features");
  pack.add<IhtRank>("iht-rank");
  pack.add<OodAccuracy>("ood-accuracy");
  pack.add<StableRank>("stable-rank");
  pack.add<FeatureSupport>("feature-support");
}

}  // namespace featurelab::representation_theory_pack

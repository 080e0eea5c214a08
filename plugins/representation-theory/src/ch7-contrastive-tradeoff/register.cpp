// Chapter 7's components: "The Trade-off between Universality and Label Efficiency of Representations from
// Contrastive Learning" (§7.2.2 and App. F.2), the linear multi-task setting.
#include "../chapters.hpp"
#include "contrastive_inner_product.hpp"
#include "contrastive_regularized.hpp"
#include "learned_feature_weights.hpp"
#include "linear_representation.hpp"
#include "multitask_linear.hpp"
#include "projected_sgd.hpp"
#include "resample_spurious.hpp"
#include "ridge_probe.hpp"

namespace featurelab::representation_theory_pack {

void register_chapter7(featurelab::PackBuilder& pack) {
  pack.add<MultitaskLinear>("multitask-linear");
  pack.add<ResampleSpurious>("resample-spurious");
  pack.add<LinearRepresentation>("linear-representation");
  pack.add<ContrastiveInnerProduct>("contrastive-inner-product");
  pack.add<ContrastiveRegularized>("contrastive-regularized");
  pack.add<ProjectedSgd>("projected-sgd");
  pack.add<LearnedFeatureWeights>("learned-feature-weights");
  pack.add<RidgeProbe>("ridge-probe");
}

}  // namespace featurelab::representation_theory_pack

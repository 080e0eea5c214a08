// Chapter 7's components: "The Trade-off between Universality and Label Efficiency of Representations from
// Contrastive Learning" (§7.2.2 and App. F.2), the linear multi-task setting.
#include "chapters.hpp"
#include "ch7_contrastive_losses.hpp"
#include "ch7_feature_weights.hpp"
#include "ch7_linear_representation.hpp"
#include "ch7_multitask_linear.hpp"
#include "ch7_projected_sgd.hpp"
#include "ch7_resample_spurious.hpp"
#include "ch7_ridge_probe.hpp"

namespace representation_theory {

void register_chapter7(featurelab::PackBuilder& pack) {
  using namespace ch7;  // chapter 7's classes live in their own namespace: the chapters share the pack
  pack.add<MultitaskLinear>("multitask-linear");
  pack.add<ResampleSpurious>("resample-spurious");
  pack.add<LinearRepresentation>("linear-representation");
  pack.add<ContrastiveInnerProduct>("contrastive-inner-product");
  pack.add<ContrastiveRegularized>("contrastive-regularized");
  pack.add<ProjectedSgd>("projected-sgd");
  pack.add<FeatureWeights>("learned-feature-weights");
  pack.add<RidgeProbe>("ridge-probe");
}

}  // namespace representation_theory

#include "dg_features.hpp"

namespace featurelab::representation_theory_pack {

void draw_labels(Index n, Rng& rng, Dataset& out) {
  for (Index i = 0; i < n; ++i) out.y(i) = rng.bernoulli(0.5) ? 1 : 0;
}

FeatureSet ood_features(const Dataset& ood) {
  FeatureSet f;
  f["ood_inputs"] = ood.X;
  Mat labels(1, ood.size());
  for (Index i = 0; i < ood.size(); ++i) labels(0, i) = static_cast<Scalar>(ood.y(i));
  f["ood_labels"] = labels;
  return f;
}

}  // namespace featurelab::representation_theory_pack

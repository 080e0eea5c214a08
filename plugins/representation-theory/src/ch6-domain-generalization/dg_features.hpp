// The out-of-domain set that chapter 6's distributions expose and its probes read (Shi 2024 Sec. 6.3.1, 6.4): both
// distributions are binary (one model output, class 1 = +1); their train and test splits are in-domain, and the
// out-of-domain test set, drawn once from the job's seed, is the features "ood_inputs" (n×d) and "ood_labels"
// (1×n, 0/1). dg-theory-model also exposes "invariant" (1×d: 1 on R, 0 on U).
#pragma once

#include <featurelab/dataset.hpp>
#include <featurelab/rng.hpp>

namespace featurelab::representation_theory_pack {

// The fix when a probe's out-of-domain set or invariant mask is missing.
inline constexpr const char* kDgData = "use data.use = \"dg-theory-model\" or \"dg-toy-2d\", which expose it";

// Labels y ∈ {0, 1} (class 1 = +1), P(y = 1) = ½.
void draw_labels(featurelab::Index n, featurelab::Rng& rng, featurelab::Dataset& out);

// The features "ood_inputs" and "ood_labels" of an out-of-domain set.
featurelab::FeatureSet ood_features(const featurelab::Dataset& ood);

}  // namespace featurelab::representation_theory_pack

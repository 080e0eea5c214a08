// The 2k orthonormal feature vectors v_{y,ℓ} of the multi-view distributions (Def. 3.1 / 4.1):
// row 2y + ℓ − 1 is v_{y,ℓ}. "basis" uses e_{2y+ℓ−1}; "random" a random orthonormal set.
#pragma once

#include <featurelab/dataset.hpp>
#include <featurelab/params.hpp>
#include <featurelab/rng.hpp>

namespace featurelab::midpoint_mixup_pack {

// Adds `features` (basis | random) to a schema.
void declare_feature_basis(featurelab::Schema& schema);
// 2k×d matrix with orthonormal rows. Throws featurelab::Error if d < 2k.
featurelab::Mat make_feature_basis(const std::string& kind, int classes, featurelab::Index dim, featurelab::Rng& rng);
// {"views": 2k×d, "view1": k×d (v_{y,1}), "view2": k×d (v_{y,2})}
featurelab::FeatureSet feature_set(const featurelab::Mat& views);

}  // namespace featurelab::midpoint_mixup_pack

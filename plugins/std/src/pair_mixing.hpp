// What the batch augments that mix pairs of samples share (Zhang et al. 2018; Chidambaram et al. 2023 Eq. 2.2, 3.1):
//   z = λ x_i + (1 − λ) x_j,   t = λ e_{y_i} + (1 − λ) e_{y_j}   (soft targets for cross-entropy)
// Mixing is coordinate-wise, hence patch-wise for patch data.
//   mixup           λ ~ Beta(a, a), one per batch (as the authors' code) or one per pair (mixup_augment.hpp)
//   midpoint-mixup  λ = 1/2: the sampled estimator of J_MM (midpoint_mixup_augment.hpp)
// Partners: a random permutation of the batch (self-pairs allowed), or a uniform random index.
#pragma once

#include <featurelab/augment.hpp>

#include <vector>

namespace featurelab::std_pack {

class PairMixing : public Augment {
 public:
  void apply(const Batch& in, Dataset& out, Rng& rng) override;

 protected:
  PairMixing(double alpha, bool per_pair, bool permutation) : alpha_(alpha), per_pair_(per_pair), permutation_(permutation) {}
  static void declare_pairing(Schema& schema);

 private:
  double lambda(Rng& rng) const { return alpha_ > 0 ? rng.beta(alpha_, alpha_) : 0.5; }
  double alpha_;  // 0 = the midpoint
  bool per_pair_;
  bool permutation_;
  std::vector<Index> partner_;
};

}  // namespace featurelab::std_pack

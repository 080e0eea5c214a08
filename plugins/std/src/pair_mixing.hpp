// Batch augments that mix pairs of samples (Zhang et al. 2018; Chidambaram et al. Eq. 2.2, 3.1):
//   z = λ x_i + (1 − λ) x_j,   t = λ e_{y_i} + (1 − λ) e_{y_j}   (soft targets for cross-entropy)
// Mixing is coordinate-wise, hence patch-wise for patch data.
//   mixup           λ ~ Beta(a, a), one per batch (as the authors' code) or one per pair
//   midpoint-mixup  λ = 1/2: the sampled estimator of J_MM
// Partners: a random permutation of the batch (self-pairs allowed), or a uniform random index.
#pragma once

#include <featurelab/augment.hpp>

namespace midpoint_mixup {

class PairMixing : public featurelab::Augment {
 public:
  void apply(const featurelab::Batch& in, featurelab::Dataset& out, featurelab::Rng& rng) override;

 protected:
  PairMixing(double alpha, bool per_pair, bool permutation) : alpha_(alpha), per_pair_(per_pair), permutation_(permutation) {}
  static void declare_pairing(featurelab::Schema& schema);

 private:
  double lambda(featurelab::Rng& rng) const { return alpha_ > 0 ? rng.beta(alpha_, alpha_) : 0.5; }
  double alpha_;  // 0 = the midpoint
  bool per_pair_;
  bool permutation_;
  std::vector<featurelab::Index> partner_;
};

class Mixup : public PairMixing {
 public:
  static constexpr featurelab::Doc kDoc =
      "Mixup (Zhang et al. 2018): mix each sample with a random partner, λ ~ Beta(a, a) per batch or per pair, "
      "soft targets λ e_i + (1−λ) e_j.";
  static featurelab::Schema schema();
  Mixup(const featurelab::Params& params, featurelab::Context& context);
};

class MidpointMixup : public PairMixing {
 public:
  static constexpr featurelab::Doc kDoc =
      "Midpoint Mixup (Eq. 3.1, sampled pairs): z = (x_i + x_j)/2 with targets (e_i + e_j)/2 for a random "
      "partner j of each sample.";
  static featurelab::Schema schema();
  MidpointMixup(const featurelab::Params& params, featurelab::Context& context);
};

}  // namespace midpoint_mixup

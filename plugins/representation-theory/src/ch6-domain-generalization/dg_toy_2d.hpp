// Distribution `dg-toy-2d` (Shi 2024 Sec. 6.3.1): x1 | y ~ y·U[0,1] (invariant), sign(x2) = y with probability
// p_agree (0.7 in-domain, 0.3 out-of-domain) and −y otherwise, |x2| ~ U[0,1] (our reading of the unspecified y = −1
// case, consistent with Sec. 6.4), P(y = 1) = ½. Binary (one model output, class 1 = +1); the out-of-domain test set
// is the features ood_inputs / ood_labels (dg_features.hpp).
#pragma once

#include <featurelab/distribution.hpp>

namespace featurelab::representation_theory_pack {

class DgToy2d : public featurelab::Distribution {
 public:
  static constexpr featurelab::Doc kDoc =
      "Shi 2024 Sec. 6.3.1: x1 = y·U[0,1] (invariant), x2 agrees in sign with y w.p. 0.7 in-domain and 0.3 "
      "out-of-domain; the OOD test set is exposed as features ood_inputs / ood_labels.";
  static featurelab::Schema schema();
  static double dimension(const featurelab::Params& params);  // D, for the memory estimate at validation
  DgToy2d(const featurelab::Params& params, featurelab::Context& context);

  featurelab::DataSpec spec() const override;
  void sample(featurelab::Index n, featurelab::Split split, featurelab::Rng& rng, featurelab::Dataset& out) override;
  featurelab::FeatureSet features() const override;

  void draw(featurelab::Index n, double p_agree, featurelab::Rng& rng, featurelab::Dataset& out) const;

 private:
  double p_id_, p_ood_, x2_scale_;
  featurelab::Dataset ood_;
};

}  // namespace featurelab::representation_theory_pack

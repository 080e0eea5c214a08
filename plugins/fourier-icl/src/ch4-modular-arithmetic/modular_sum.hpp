// Distribution `modular-sum` (Shi 2024 ch. 4, §4.3.1, App. C.10): k-input modular addition over Z_p,
//     y = (a_1 + … + a_k) mod p,   x = (one-hot(a_1), …, one-hot(a_k)) ∈ {0,1}^{kp},
// over the WHOLE table D_p of p^k tuples, split once at random (the job's seed) into train and test
// ("we even split the whole datasets (p^k data points) into the training and test datasets"). The splits
// are finite: data.train = "all" takes the whole train part. train_fraction = 1 trains on all of D_p (the
// objective of Def. 4.1 and the margin of Thm. 4.9 are over D_p); the test split is then D_p as well. sample() returns the split's rows in the
// split's order (trainers shuffle). p must be an odd prime (the chapter's Fourier analysis and γ* assume it).
// encoding = "tokens" writes the sequence a_1 o a_2 o … a_k = as token ids instead ('o' = 0, '=' = 1, a ↦ a + 2;
// feature vocab = [p + 2]) for the transformer. Meta a1 … ak (the summands); feature task = [k, p].
#pragma once

#include "modular_table.hpp"

#include <featurelab/distribution.hpp>

#include <string>
#include <vector>

namespace featurelab::fourier_icl_pack {

class ModularSum : public featurelab::Distribution {
 public:
  static constexpr featurelab::Doc kDoc =
      "k-input modular addition y = (a_1 + … + a_k) mod p over all p^k tuples, one-hot inputs (kp), split once at "
      "random into train and test (Shi 2024 ch. 4); finite splits (data.train = \"all\"); train_fraction 1: train on all of D_p.";
  static featurelab::Schema schema();
  static double dimension(const featurelab::Params& params);  // D, for the memory estimate at validation
  ModularSum(const featurelab::Params& params, featurelab::Context& context);
  featurelab::DataSpec spec() const override;
  void sample(featurelab::Index n, featurelab::Split split, featurelab::Rng& rng, featurelab::Dataset& out) override;
  featurelab::FeatureSet features() const override;
  featurelab::Index available(featurelab::Split split) const override;

 private:
  featurelab::Index width() const;  // input columns of the encoding
  bool whole_table() const { return train_ == total_; }  // train_fraction = 1: both splits are D_p
  int k_, p_;
  bool tokens_;
  featurelab::Index total_, train_;
  std::vector<featurelab::Index> order_;  // tuple indices, train part first
  std::vector<std::string> names_;
};

}  // namespace featurelab::fourier_icl_pack

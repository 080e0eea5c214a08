// Augment `resample-spurious` (ch. 7 eq. 7.3 / 7.7): the transformation keeps the invariant features z_R and
// draws the spurious ones afresh, z⁺ = [z_R; z_U⁺] with z_U⁺ ~ N(0, σ_U² I), x⁺ = M z⁺. M is orthonormal, so
// z_U = M_Uᵀ x and x⁺ = x + M_U (z_U⁺ − M_Uᵀ x): two GEMMs over the batch, no per-sample code.
// The first `positives` = K rows of the batch become pairs, the rest stay the negatives x⁻ (i.i.d. samples);
// the output is the SDK's view layout (featurelab/views.hpp), that of the contrastive losses and of std's view
// augments: rows [0, K) anchors x, [K, 2K) positives x⁺ (row K + k pairs with anchor k), [2K, 2K + N) negatives,
// roles in column 0 of T, and the input's targets in the columns after it (the labels eq. 7.9's prediction term
// reads).
#pragma once

#include "../contract_setups.hpp"

#include <featurelab/augment.hpp>

namespace featurelab::representation_theory_pack {

class ResampleSpurious : public featurelab::Augment {
 public:
  static constexpr featurelab::Doc kDoc =
      "The transformation of Eq 7.7: x⁺ = M[z_R; z_U⁺] with fresh spurious features z_U⁺ ~ N(0, σ_U² I); the first "
      "`positives` rows become (anchor, positive) pairs, the rest stay negatives (0 = every row a pair, for the "
      "expected negative).";
  static featurelab::Schema schema();
  static std::map<std::string, featurelab::Value> test_params() { return {{"positives", std::int64_t(3)}}; }
  static featurelab::ContractData contract_data() { return multitask_contract(); }
  ResampleSpurious(const featurelab::Params& params, featurelab::Context& context);
  void apply(const featurelab::Batch& in, featurelab::Dataset& out, featurelab::Rng& rng) override;

 private:
  featurelab::Index positives_;
  featurelab::Scalar sigma_u_;
  featurelab::Mat atoms_u_;   // |U|×d: the spurious atoms M_Uᵀ
  featurelab::Mat fresh_;     // K×|U|: z_U⁺ − z_U (reused)
};

}  // namespace featurelab::representation_theory_pack

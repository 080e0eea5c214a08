// Distribution `looped-icl-prompts` (Shi 2024 ch. 8, Defs. 8.2–8.5, §8.6): the in-context "linear vector
// generation" prompts of the looped-transformer chapter. Per prompt: X ∈ R^{n×d} with i.i.d. N(0, 1) entries, a hidden
// task θ* uniform on the unit sphere of R^d (the text's "S^d" is S^{d−1}), noiseless labels y = Xθ*, and the query
// α ≠ 0 in the last row beside q^(0) = 0: Z^(0) = [[X, y], [0ᵀ, α]] ∈ R^{(n+1)×(d+1)} (layout: prompt_layout.hpp).
// Target (Dataset::T, d columns): αθ*, where TF = αθ^(T) converges. Train and test prompts are drawn alike.
//
// Not the ch. 5 `icl-linear-regression` of fourier-icl: that one has tokens x ~ N(0, QDQᵀ), tasks w ~ N(0, I), a
// query token x_q and a scalar target; here the examples are isotropic, the task has unit norm, the query is a scalar α
// and the model answers with a vector q (⟨q, θ*⟩ ≈ α).
#pragma once

#include <featurelab/distribution.hpp>

#include <string>
#include <vector>

namespace featurelab::representation_theory_pack {

class LoopedIclPrompts : public featurelab::Distribution {
 public:
  static constexpr featurelab::Doc kDoc =
      "Shi 2024 ch. 8 prompts Z = [[X, y], [0, α]]: X ~ N(0, 1)^{n×d}, θ* uniform on the unit sphere, y = Xθ*, "
      "query α; exact doubles of y, α and θ* in meta columns; target αθ*.";
  static featurelab::Schema schema();
  static double dimension(const featurelab::Params& params);  // D, for the memory estimate at validation
  LoopedIclPrompts(const featurelab::Params& params, featurelab::Context& context);
  featurelab::DataSpec spec() const override;
  void sample(featurelab::Index count, featurelab::Split split, featurelab::Rng& rng,
              featurelab::Dataset& out) override;

 private:
  featurelab::Index n_, d_;
  double alpha_;
  std::vector<std::string> meta_;
};

}  // namespace featurelab::representation_theory_pack

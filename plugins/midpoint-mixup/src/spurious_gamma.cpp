// Per-sample channel scaling into the trainer's reused buffer.
#include "spurious_gamma.hpp"

#include <featurelab/error.hpp>

#include <algorithm>

namespace featurelab::midpoint_mixup_pack {

Schema SpuriousGamma::schema() {
  Schema s;
  s.real("gamma_low", 0.0, "γ ~ U[gamma_low, gamma_high]").range(0, 1);
  s.real("gamma_high", 1.0, "γ ~ U[gamma_low, gamma_high]").range(0, 1);
  return s;
}

SpuriousGamma::SpuriousGamma(const Params& params, Context& context)
    : low_(params.real("gamma_low")), high_(params.real("gamma_high")) {
  if (low_ > high_) throw Error("gamma_low exceeds gamma_high; swap them");
  const auto& meta = context.data.meta;
  if (std::find(meta.begin(), meta.end(), "stored_gamma") == meta.end()) {
    throw Error("spurious-gamma rescales halves that transform spurious-concat stored at γ = 1/2 (its gamma = "
                "\"per-access\"), and this data has none; put that transform before it");
  }
  if (context.data.dim % 2 != 0) {
    throw Error("spurious-gamma scales two halves of the channels, but the data dimension " +
                std::to_string(context.data.dim) + " is odd; put transform spurious-concat (gamma = \"per-access\") "
                "before it");
  }
}

void SpuriousGamma::apply(const Batch& in, Dataset& out, Rng& rng) {
  const Index n = in.n, half = in.dim / 2;
  out.resize(n, in.dim, in.has_targets() ? in.t_cols : 0);
  out.classes = in.classes;
  out.X = in.X();
  out.y = in.Y();
  if (in.has_targets()) out.T = in.T();
  for (Index i = 0; i < n; ++i) {
    // The halves are stored at γ = 1/2: 2γ and 2(1 − γ) give γx and (1 − γ)x' to the bit.
    const auto g = static_cast<Scalar>(rng.uniform(low_, high_));
    out.X.row(i).head(half) *= Scalar(2) * g;
    out.X.row(i).tail(half) *= Scalar(2) * (Scalar(1) - g);
  }
}

}  // namespace featurelab::midpoint_mixup_pack

#include "feature_support.hpp"
#include "dg_features.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace featurelab::representation_theory_pack {

Schema FeatureSupport::schema() {
  Schema s;
  s.string("block", "w", "the model's 1×d weight block (feature-weights: w; linear: W)");
  s.real("tol", 1e-6, "|w_j| <= tol·max|w| counts as zero").min(0).below(1);
  return s;
}

FeatureSupport::FeatureSupport(const Params& params, Context&) : block_(params.str("block")), tol_(params.real("tol")) {}

void FeatureSupport::measure(const ProbeInput& in, Measurements& out) {
  const Mat& mask = require_feature(in.features, name(), "invariant", kDgData);
  const ParamBlock* b = in.model.find_block(block_);
  if (!b || b->rows != 1 || b->cols != mask.cols()) {
    throw Error("feature-support reads a 1×" + std::to_string(mask.cols()) + " weight block named '" + block_ +
                "'; set probe.block to the model's weight block (feature-weights: w)");
  }
  const VecD w = in.model.block(block_).row(0).transpose().cast<double>();
  const double cut = tol_ * w.cwiseAbs().maxCoeff();
  double sum_r = 0, sum_u = 0, nonzero_r = 0, nonzero_u = 0, r = 0;
  for (Index j = 0; j < w.size(); ++j) {
    const bool invariant = mask(0, j) > 0;
    const bool nonzero = std::abs(w(j)) > cut;
    (invariant ? sum_r : sum_u) += w(j);
    (invariant ? nonzero_r : nonzero_u) += nonzero ? 1 : 0;
    r += invariant ? 1 : 0;
  }
  const double alpha = sum_r / r, beta = sum_u / (static_cast<double>(w.size()) - r);
  out.scalar("alpha", alpha);
  out.scalar("beta", beta);
  if (beta != 0) out.scalar("ratio", alpha / beta);
  out.scalar("nonzero_invariant", nonzero_r);
  out.scalar("nonzero_environmental", nonzero_u);
  out.scalar("support_in_invariant", nonzero_u == 0 && nonzero_r > 0 ? 1 : 0);
  out.scalar("alpha_bound", 1 / std::sqrt(r));  // Lemma 6.1: α < 1/√r
}

}  // namespace featurelab::representation_theory_pack

// The sets from α⁽⁰⁾ = W⁽⁰⁾Mᵀ (m×d, in double), then one m×d product per measurement.
#include "lucky_neuron_sets.hpp"
#include "probe_inputs.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace featurelab::contrastive_decoupling_pack {

Schema LuckyNeuronSets::schema() {
  Schema s;
  s.real("c0", 0.1, "c0 of Def. B.1 (c1 = 2 + 2(1 − γ)c0, c2 = c1 − γc0)").above(0);
  s.real("gamma", 0.01, "γ of Def. B.1 (the paper takes γ < 1/100)").above(0).max(1);
  s.real("threshold", 0.9, "θ: a neuron is a singleton on atom j when |α_ij|/‖w_i‖ >= θ").above(0).max(1);
  return s;
}

LuckyNeuronSets::LuckyNeuronSets(const Params& params, Context&)
    : c0_(params.real("c0")), gamma_(params.real("gamma")), theta_(params.real("threshold")) {}

void LuckyNeuronSets::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  const MatD M = require_feature(in.features, who, "dictionary", kSparseCodingData).cast<double>();  // d×d1
  const MatD W = weights(in.model, M.cols(), who).cast<double>();                                       // m×d1
  const Index m = W.rows(), d = M.rows();
  const MatD alpha = W * M.transpose();  // m×d
  if (!fixed_) {
    if (in.step != 0) {
      throw Error(who + " fixes Def. B.1's sets from the initial weights, but its first measurement is at step " +
                  std::to_string(in.step) + ": let the probe run at step 0 (remove only_final / its own every)");
    }
    const double c1 = 2 + 2 * (1 - gamma_) * c0_, c2 = c1 - gamma_ * c0_;
    const double scale = std::log(static_cast<double>(d)) / static_cast<double>(d);
    const VecD s = alpha.rowwise().squaredNorm();
    const MatD ratio = alpha.array().square().colwise() / s.cwiseMax(1e-300).array();  // α_ij²/s_i
    candidate_ = (ratio.array() >= c2 * scale).cast<double>().matrix();
    const VecD candidacies = candidate_.rowwise().sum();
    for (Index i = 0; i < m; ++i) {
      if (candidacies(i) == 0) others_.push_back(i);
      for (Index j = 0; j < d; ++j) {
        // i ∈ 𝓜*_j: above c1 on j and within c2 on every other atom, i.e. j is its only candidacy.
        if (ratio(i, j) >= c1 * scale && candidacies(i) == 1) lucky_.emplace_back(i, j);
      }
    }
    fixed_ = true;
    VecD per_atom = VecD::Zero(d);
    for (const auto& [i, j] : lucky_) per_atom(j) += 1;
    out.scalar("lucky_atoms", (per_atom.array() > 0).cast<double>().mean());
    out.scalar("lucky_per_atom", per_atom.mean());
    out.scalar("candidates_max", candidate_.colwise().sum().maxCoeff());
  }
  const VecD norm = W.rowwise().norm().cwiseMax(1e-300);
  const MatD relative = alpha.cwiseAbs().array().colwise() / norm.array();  // |α_ij|/‖w_i‖
  if (!lucky_.empty()) {
    double aligned = 0, singletons = 0;
    for (const auto& [i, j] : lucky_) {
      aligned += relative(i, j);
      singletons += relative(i, j) >= theta_ ? 1 : 0;
    }
    out.scalar("lucky_alignment", aligned / static_cast<double>(lucky_.size()));
    out.scalar("lucky_singletons", singletons / static_cast<double>(lucky_.size()));
  }
  if (!others_.empty()) {
    double aligned = 0;
    for (const Index i : others_) aligned += relative.row(i).maxCoeff();
    out.scalar("other_alignment", aligned / static_cast<double>(others_.size()));
  }
  double singletons = 0, from_candidates = 0;
  for (Index i = 0; i < m; ++i) {
    Index j = 0;
    if (relative.row(i).maxCoeff(&j) < theta_) continue;
    singletons += 1;
    from_candidates += candidate_(i, j);
  }
  if (singletons > 0) out.scalar("singletons_from_candidates", from_candidates / singletons);
}

}  // namespace featurelab::contrastive_decoupling_pack

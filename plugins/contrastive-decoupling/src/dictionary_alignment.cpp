// All from α = W Mᵀ (one m×d product, in double) and the row norms of W.
#include "dictionary_alignment.hpp"
#include "probe_inputs.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace featurelab::contrastive_decoupling_pack {

std::string threshold_name(double theta) {
  std::ostringstream s;
  s << theta;
  return s.str();
}

Schema DictionaryAlignment::schema() {
  Schema s;
  s.reals("thresholds", {0.7, 0.9}, "θ for singletons_<θ> and coverage_<θ> (a neuron is a θ-singleton when max_j "
                                     "|<w_i,M_j>|/‖w_i‖ >= θ)").non_empty();
  return s;
}

DictionaryAlignment::DictionaryAlignment(const Params& params, Context&) : thresholds_(params.reals("thresholds")) {
  for (double t : thresholds_) {
    if (!(t > 0 && t <= 1)) throw Error("dictionary-alignment thresholds must lie in (0, 1], got " + std::to_string(t));
  }
}

void DictionaryAlignment::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  const MatD M = require_feature(in.features, who, "dictionary", kSparseCodingData).cast<double>();  // d×d1
  const MatD W = weights(in.model, M.cols(), who).cast<double>();  // m×d1
  const Index m = W.rows(), d = M.rows();
  const MatD alpha = W * M.transpose();  // m×d
  const VecD norm2 = W.rowwise().squaredNorm().cwiseMax(1e-300);
  const VecD sparse2 = alpha.rowwise().squaredNorm();
  const VecD dense2 = (norm2 - sparse2).cwiseMax(0.0);
  const VecD fraction = sparse2.cwiseQuotient(norm2);
  const MatD relative = alpha.cwiseAbs().array().colwise() / norm2.cwiseSqrt().array();  // |α_ij|/‖w_i‖
  VecD top1(m);
  VecD best(m);
  for (Index i = 0; i < m; ++i) {
    Index j = 0;
    top1(i) = relative.row(i).maxCoeff(&j);
    best(i) = static_cast<double>(j);
  }
  const VecD atom_best = relative.colwise().maxCoeff().transpose();
  out.scalar("sparse_fraction", fraction.mean());
  out.scalar("sparse_fraction_min", fraction.minCoeff());
  out.scalar("sparse_fraction_max", fraction.maxCoeff());
  out.scalar("top1", top1.mean());
  for (double t : thresholds_) {
    out.scalar("singletons_" + threshold_name(t), (top1.array() >= t).cast<double>().mean());
    out.scalar("coverage_" + threshold_name(t), (atom_best.array() >= t).cast<double>().mean());
  }
  out.scalar("sparse_norm", sparse2.cwiseSqrt().mean());
  out.scalar("dense_norm", dense2.cwiseSqrt().mean());
  out.scalar("weight_norm", norm2.cwiseSqrt().mean());

  VecD bias = VecD::Zero(m);
  if (const ParamBlock* bb = in.model.find_block("b"); bb && bb->size() == m) {
    bias = in.model.block("b").row(0).transpose().cast<double>();
  }
  const bool biases_on = (bias.array() > 0).any();
  if (biases_on) {
    const MatD active = (alpha.cwiseAbs().array() >= bias.replicate(1, d).array()).cast<double>().matrix();  // m×d
    const VecD support = active.rowwise().sum();
    out.scalar("active_atoms", support.mean());  // |N_i| averaged over neurons
    out.scalar("active_atoms_max", support.maxCoeff());
    out.scalar("atom_neurons_max", active.colwise().sum().maxCoeff());
    // Thm 3.4's off-support coefficients α'_ij (j ∉ N_i) against o(1/√d)·‖w_i‖: the largest |α'_ij|/‖w_i‖ of a
    // neuron, times √d, averaged over the neurons with a non-empty support.
    double off_sum = 0;
    Index supported = 0;
    for (Index i = 0; i < m; ++i) {
      if (support(i) == 0) continue;
      off_sum += (relative.row(i).array() * (1.0 - active.row(i).array())).maxCoeff();
      ++supported;
    }
    if (supported > 0) out.scalar("off_support_sqrt_d", off_sum / static_cast<double>(supported) * std::sqrt(double(d)));
  }
  // Thm 3.4's dense coefficients β_ij = ⟨w_i, M⊥_j⟩ against o(1/√d1)·‖w_i‖: max_j |β_ij|/‖w_i‖ times √d1, averaged
  // over neurons (a random w gives ≈ √(2 ln d1); a neuron inside span(M) gives 0).
  if (const auto completion = in.features.find("completion"); completion != in.features.end()) {
    const MatD beta = W * completion->second.cast<double>().transpose();  // m×(d1 − d)
    const VecD beta_max = beta.cwiseAbs().rowwise().maxCoeff().cwiseQuotient(norm2.cwiseSqrt());
    out.scalar("dense_max_sqrt_d1", beta_max.mean() * std::sqrt(double(W.cols())));
  }

  if (in.step == 0) {
    init_sparse2_ = sparse2;
    init_dense2_ = dense2;
  }
  if (biases_on && biases_were_zero_ && !t1_seen_ && in.step > 0 && init_sparse2_.size() == m) {
    t1_seen_ = true;
    out.scalar("t1.step", static_cast<double>(in.step));
    out.scalar("t1.sparse_fraction", fraction.mean());
    out.scalar("t1.sparse_fraction_min", fraction.minCoeff());
    out.scalar("t1.dense_growth", dense2.cwiseQuotient(init_dense2_.cwiseMax(1e-300)).mean());
    out.scalar("t1.sparse_rate",
               (0.5 * sparse2.cwiseQuotient(init_sparse2_.cwiseMax(1e-300)).array().log()).mean() /
                   static_cast<double>(in.step));
  }
  biases_were_zero_ = !biases_on;

  Table table;
  table.values.resize(m, 5);
  table.values.col(0) = fraction;
  table.values.col(1) = top1;
  table.values.col(2) = best;
  table.values.col(3) = norm2.cwiseSqrt();
  table.values.col(4) = bias.cwiseQuotient(norm2.cwiseSqrt());
  table.col_names = {"sparse_fraction", "top1", "best_atom", "norm", "bias_ratio"};
  out.table("neurons", std::move(table));
}

}  // namespace featurelab::contrastive_decoupling_pack

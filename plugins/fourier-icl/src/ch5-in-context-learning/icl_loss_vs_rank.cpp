#include "icl_loss_vs_rank.hpp"
#include "icl_theory.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace featurelab::fourier_icl_pack {

void IclLossVsRank::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  constexpr const char* kFix = "use data.use = \"icl-linear-regression\", which exposes it";
  const Mat& eigenvalues = require_feature(in.features, who, "eigenvalues", kFix, 1, kAnyExtent);
  const Mat& prompt = require_feature(in.features, who, "prompt", kFix, 1, 3);
  const Mat& task = require_feature(in.features, who, "task", kFix, 1, kAnyExtent);
  const Mat& basis = require_feature(in.features, who, "basis", kFix);
  if (!in.model.find_block("A") || !in.model.find_block("B") || !in.model.find_block("u")) {
    throw Error(who + " reads blocks A, B and u of linear-self-attention");
  }
  IclSetting s;
  s.eigenvalues = eigenvalues.row(0).transpose().cast<double>();
  s.context = prompt(0, 0);
  const double shots = prompt(0, 1), sigma = prompt(0, 2);
  const VecD c = task.row(0).transpose().cast<double>();
  const MatD Qt = basis.cast<double>();  // rows: eigenvectors
  const MatD A = in.model.block("A").cast<double>(), B = in.model.block("B").cast<double>();
  const double u = in.model.block("u")(0, 0);
  const Index d = A.rows();
  const int rank = static_cast<int>(A.cols());
  const MatD G = Qt * (u * A * B.transpose()) * Qt.transpose();
  const VecD v = optimal_coefficients(s, rank);
  const MatD Vstar = v.asDiagonal();
  out.scalar("rel_err", (G - Vstar).norm() / Vstar.norm());
  double tail = 0;
  for (Index i = rank; i < d; ++i) tail = std::max(tail, std::abs(G(i, i)));
  out.scalar("tail", tail);
  out.scalar("pretrain_gap", pretraining_loss(s, G) / pretraining_loss(s, Vstar) - 1);
  const double exact = evaluation_loss(s, G, c, shots, sigma);
  out.scalar("eval_loss", exact);
  const double best_own = optimal_evaluation_loss(s, rank, c, shots, sigma);
  out.scalar("eval_loss_optimal", best_own);
  if (in.test.size() > 0 && in.test.T.cols() == 1) {
    predictions_.resize(in.test.size(), 1);
    in.model.forward(in.test.X, predictions_);
    const double mc = (predictions_.col(0) - in.test.T.col(0)).cast<double>().squaredNorm() / static_cast<double>(in.test.size());
    out.scalar("mc_loss", mc);
    out.scalar("mc_ratio", mc / exact);
  }
  Table table;
  table.values.resize(d, 2);
  Index best = 0;
  for (Index r = 1; r <= d; ++r) {
    const double loss = optimal_evaluation_loss(s, static_cast<int>(r), c, shots, sigma);
    table.values(r - 1, 0) = loss;
    table.values(r - 1, 1) = loss - best_own;
    table.row_names.push_back("r=" + std::to_string(r));
    if (loss < table.values(best, 0)) best = r - 1;
  }
  out.scalar("r_opt", static_cast<double>(best + 1));
  table.col_names = {"loss", "gap"};
  out.table("rank", std::move(table));
  Table coefficients;
  coefficients.values.resize(d, 2);
  coefficients.values.col(0) = G.diagonal();
  coefficients.values.col(1) = v;
  coefficients.col_names = {"trained", "optimal"};
  out.table("coefficients", std::move(coefficients));
}

}  // namespace featurelab::fourier_icl_pack

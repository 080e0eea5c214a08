// One symmetric eigen-decomposition (double) of the feature matrix's smaller Gram matrix.
#include "stable_rank.hpp"
#include "dg_features.hpp"

#include <featurelab/error.hpp>
#include <featurelab/linalg.hpp>

namespace featurelab::representation_theory_pack {

Schema StableRank::schema() {
  Schema s;
  s.string("hook", "features", "the model's hook point whose feature matrix is measured");
  s.string("block", "", "measure this parameter block instead (e.g. A of linear-features: σ2(A)/σ1(A)); empty = the hook");
  s.choice("split", "ood", {"train", "test", "ood"}, "the inputs: a split, or the out-of-domain set (Fig. 6.5)");
  return s;
}

StableRank::StableRank(const Params& params, Context&)
    : hook_(params.str("hook")), block_(params.str("block")), split_(params.str("split")) {}

void StableRank::measure(const ProbeInput& in, Measurements& out) {
  double rows = 1;
  if (block_.empty()) {
    const Mat& X = split_ == "train"  ? in.train.X
                   : split_ == "test" ? in.test.X
                                      : require_feature(in.features, name(), "ood_inputs", kDgData);
    if (X.rows() == 0) throw Error("stable-rank: the " + split_ + " split is empty");
    in.model.hook(hook_, X, features_);
    rows = static_cast<double>(X.rows());
  } else {
    if (!in.model.find_block(block_)) throw Error("stable-rank.block = \"" + block_ + "\" is not a parameter block of the model");
    features_ = in.model.block(block_);
  }
  // σ from the eigenvalues of the smaller Gram matrix, in double: Eigen 3.4's BDCSVD of F itself segfaulted on a nearly
  // collapsed feature matrix (a ReLU network's OOD features under a strong nuclear-norm penalty, dg-colored-mnist at
  // λ = 0.1); the symmetric eigensolver does not. σ below √ε·σ_max ≈ 1.5e-8·σ_max are at rounding level, and set to 0.
  const Eigen::MatrixXd F = features_.cast<double>();
  const Eigen::MatrixXd gram = F.cols() <= F.rows() ? Eigen::MatrixXd(F.transpose() * F) : Eigen::MatrixXd(F * F.transpose());
  const Eigen::VectorXd ascending = symmetric_eigen(gram, false).values.cwiseMax(0.0).cwiseSqrt();
  Eigen::VectorXd sigma = ascending.reverse();
  if (sigma.size() > 0) sigma = (sigma.array() > 1.5e-8 * sigma(0)).select(sigma, 0.0);
  const double top = sigma.size() > 0 ? sigma(0) : 0;
  const double frobenius2 = sigma.squaredNorm();
  out.scalar("stable_rank", top > 0 ? frobenius2 / (top * top) : 0);
  out.scalar("stable_rank_printed", top > 0 ? frobenius2 / top : 0);
  out.scalar("nuclear_per_sample", sigma.sum() / rows);
  out.scalar("sigma_ratio", sigma.size() > 1 && top > 0 ? sigma(1) / top : 0);
  Table table;
  table.values = sigma.transpose();
  table.row_names = {"sigma"};
  out.table("singular_values", std::move(table));
}

}  // namespace featurelab::representation_theory_pack

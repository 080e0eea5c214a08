// One SVD (double) per feature matrix.
#include "stable_rank.hpp"
#include "dg_features.hpp"

#include <featurelab/error.hpp>

#include <Eigen/SVD>

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
  const Eigen::MatrixXd F = features_.cast<double>();
  const Eigen::VectorXd sigma = Eigen::BDCSVD<Eigen::MatrixXd>(F).singularValues();
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

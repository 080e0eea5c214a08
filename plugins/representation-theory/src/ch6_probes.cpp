// Chapter 6's probes: one forward pass per split, one SVD (double) per feature matrix.
#include "ch6_probes.hpp"

#include <featurelab/error.hpp>

#include <Eigen/SVD>

#include <cmath>
#include <functional>

namespace representation_theory {

using namespace featurelab;

namespace {

// The fix when a probe's out-of-domain set or invariant mask is missing.
constexpr const char* kDgData = "use data.use = \"dg-theory-model\" or \"dg-toy-2d\", which expose it";

// Accuracy of the model's predictions (one output: class 1 iff f > 0; else the arg max).
double accuracy(Model& model, ConstMatRef X, const std::function<std::int32_t(Index)>& label, Mat& scores) {
  if (X.rows() == 0) return std::nan("");
  scores.resize(X.rows(), model.outputs());
  model.forward(X, scores);
  double correct = 0;
  for (Index i = 0; i < X.rows(); ++i) {
    Index best = 0;
    if (scores.cols() == 1) {
      best = scores(i, 0) > 0 ? 1 : 0;
    } else {
      scores.row(i).maxCoeff(&best);
    }
    correct += best == label(i) ? 1 : 0;
  }
  return correct / static_cast<double>(X.rows());
}

}  // namespace

Schema OodAccuracy::schema() { return Schema(); }

OodAccuracy::OodAccuracy(const Params&, Context&) {}

void OodAccuracy::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  const Mat& X = require_feature(in.features, who, "ood_inputs", kDgData);
  const Mat& y = require_feature(in.features, who, "ood_labels", kDgData, 1, X.rows());
  const double id = accuracy(in.model, in.test.X, [&](Index i) { return in.test.y(i); }, scores_);
  const double ood = accuracy(in.model, X, [&](Index i) { return static_cast<std::int32_t>(y(0, i)); }, scores_);
  out.scalar("id", id);
  out.scalar("ood", ood);
  if (id < 1) out.scalar("error_ratio", (1 - ood) / (1 - id));
}

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

}  // namespace representation_theory

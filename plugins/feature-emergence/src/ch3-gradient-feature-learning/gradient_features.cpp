// G for all neurons in two GEMMs, then one GEMM of cosines with the directions; counting is O(N·r).
#include "gradient_features.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace featurelab::feature_emergence_pack {

Schema GradientFeatures::schema() {
  Schema s;
  s.string("feature", "directions", "the distribution's feature whose rows are the directions D_j (normalised here)");
  s.choice("bias_sign", "minus", {"minus", "plus"},
           "the model's bias convention: minus = ReLU(wᵀx − b) (ch. 3), plus = ReLU(wᵀx + b) (ch. 2, threshold −b)");
  s.real("gamma", 0.1, "γ: the cone C_{D,γ} is |<G, D>|/‖G‖ > 1 − γ").above(0).below(1);
  s.real("norm_threshold", 0.0, "B_G: the least ‖G‖ that counts (absolute, or relative to the median, see norm_mode)").min(0);
  s.choice("norm_mode", "absolute", {"absolute", "median"},
           "absolute: B_G = norm_threshold; median: B_G = norm_threshold × median_i ‖G_i‖");
  s.choice("split", "train", {"train", "test"}, "the data G averages over (train: the sample the first step sees)");
  s.integer("samples", 0, "use the first this many samples of the split; 0 = all").min(0);
  s.boolean("table", false, "also record the table \"neurons\": ‖G_i‖ and cos(G_i, D_j) per neuron");
  return s;
}

GradientFeatures::GradientFeatures(const Params& params, Context&)
    : feature_(params.str("feature")),
      plus_(params.str("bias_sign") == "plus"),
      gamma_(params.real("gamma")),
      norm_threshold_(params.real("norm_threshold")),
      median_(params.str("norm_mode") == "median"),
      test_(params.str("split") == "test"),
      table_(params.boolean("table")),
      samples_(params.integer("samples")) {}

void GradientFeatures::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  if (!in.model.find_block("W") || !in.model.find_block("b")) {
    std::string names;
    for (const auto& blk : in.model.blocks()) names += (names.empty() ? "" : ", ") + blk.name;
    throw Error(who + " reads the neurons from blocks \"W\" (width×d) and \"b\" (1×width); this model has: " + names +
                ". Use a model with first-layer biases (symmetric-relu-two-layer, truncated-two-layer)");
  }
  // Rows of the feature: the directions D_j.
  const Mat& F = require_feature(in.features, who, feature_, "set probe.feature to one of them");
  const Model& model = in.model;
  const ConstMatMap W = model.block("W");
  const ConstMatMap b = model.block("b");
  const Index N = W.rows(), d = W.cols(), r = F.rows();
  if (b.size() != N) throw Error(who + ": block b has " + std::to_string(b.size()) + " entries for " + std::to_string(N) + " neurons");
  if (F.cols() != d) {
    throw Error(who + ": feature \"" + feature_ + "\" has rows of length " + std::to_string(F.cols()) + " but the neurons " +
                std::to_string(d));
  }
  const Dataset& data = test_ ? in.test : in.train;
  const Index n = samples_ > 0 ? std::min(samples_, data.size()) : data.size();
  if (n == 0) throw Error(who + ": the " + std::string(test_ ? "test" : "train") + " split is empty; set data." + (test_ ? "test" : "train") + " >= 1");
  const auto X = data.X.topRows(n);

  // Gates 1[Xwᵀ − t > 0] with the ch. 3 threshold t = b (or −b), exactly as the model computes them.
  gates_.noalias() = X * W.transpose();
  if (plus_) {
    gates_.rowwise() += b.row(0);
  } else {
    gates_.rowwise() -= b.row(0);
  }
  gates_ = (gates_.array() > Scalar(0)).cast<Scalar>();
  for (Index i = 0; i < n; ++i) {
    if (data.y(i) != 1) gates_.row(i) = -gates_.row(i);  // y ⊙ gates, y = ±1
  }
  G_.noalias() = gates_.transpose() * X;  // N×d
  G_ *= Scalar(1) / static_cast<Scalar>(n);

  const Vec norms = G_.rowwise().norm();
  Mat D = F;
  for (Index j = 0; j < r; ++j) {
    const Scalar nj = D.row(j).norm();
    if (nj > 0) D.row(j) /= nj;
  }
  C_.noalias() = G_ * D.transpose();  // N×r, then cosines
  for (Index i = 0; i < N; ++i) {
    if (norms(i) > 0) {
      C_.row(i) /= norms(i);
    } else {
      C_.row(i).setZero();
    }
  }
  std::vector<double> sorted(norms.data(), norms.data() + N);
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<long>(N / 2), sorted.end());
  const double median = N > 0 ? sorted[static_cast<std::size_t>(N / 2)] : 0.0;
  const double BG = median_ ? norm_threshold_ * median : norm_threshold_;
  const double edge = 1.0 - gamma_;

  auto sign_of = [&](Index i) {  // s = sign of the ch. 3 threshold
    const double t = plus_ ? -static_cast<double>(b(0, i)) : static_cast<double>(b(0, i));
    return t > 0 ? 1 : (t < 0 ? -1 : 0);
  };
  const ParamBlock* ab = model.find_block("a");
  const bool has_a = ab && ab->rows == 1 && ab->cols == N;
  const Index half = N % 2 == 0 ? N / 2 : N;  // the independent draws of the symmetric inits
  Vec a_sign = Vec::Zero(N);
  if (has_a) a_sign = model.block("a").row(0).transpose().array().sign();

  double in_cone = 0, p_min = 1;
  std::vector<double> p_pos(static_cast<std::size_t>(r), 0), p_neg(static_cast<std::size_t>(r), 0);
  std::vector<double> nice_pos(static_cast<std::size_t>(r), 0), nice_neg(static_cast<std::size_t>(r), 0);
  for (Index i = 0; i < N; ++i) {
    if (static_cast<double>(norms(i)) < BG || norms(i) <= 0) continue;
    const int s = sign_of(i);
    bool any = false;
    for (Index j = 0; j < r; ++j) {
      const double c = static_cast<double>(C_(i, j));
      if (std::abs(c) > edge) {
        any = true;
        if (s > 0) p_pos[static_cast<std::size_t>(j)] += 1;
        if (s < 0) p_neg[static_cast<std::size_t>(j)] += 1;
      }
      if (has_a && i < half) {
        if (static_cast<double>(a_sign(i)) * c > edge) {
          if (s > 0) nice_pos[static_cast<std::size_t>(j)] += 1;
          if (s < 0) nice_neg[static_cast<std::size_t>(j)] += 1;
        }
      }
    }
    in_cone += any ? 1 : 0;
  }
  out.scalar("in_cone", in_cone / static_cast<double>(N));
  for (Index j = 0; j < r; ++j) {
    const std::size_t u = static_cast<std::size_t>(j);
    const std::string J = std::to_string(j);
    const double pp = p_pos[u] / static_cast<double>(N), pn = p_neg[u] / static_cast<double>(N);
    out.scalar("p." + J + ".pos", pp);
    out.scalar("p." + J + ".neg", pn);
    p_min = std::min(p_min, std::max(pp, pn));
    if (has_a) {
      out.scalar("nice." + J + ".pos", nice_pos[u]);
      out.scalar("nice." + J + ".neg", nice_neg[u]);
    }
    out.scalar("cos." + J, N > 0 ? static_cast<double>(C_.col(j).cwiseAbs().maxCoeff()) : 0.0);
  }
  if (r > 0) out.scalar("p_min", p_min);
  out.scalar("norm_median", median);
  out.scalar("threshold", BG);
  if (table_) {
    Table table;
    table.values.resize(N, 1 + r);
    table.values.col(0) = norms.cast<double>();
    table.values.rightCols(r) = C_.cast<double>();
    table.col_names.push_back("norm");
    for (Index j = 0; j < r; ++j) table.col_names.push_back("cos." + std::to_string(j));
    out.table("neurons", std::move(table));
  }
}

}  // namespace featurelab::feature_emergence_pack

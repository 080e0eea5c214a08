// Cosines, coefficients and activation fractions, each one batched product over neurons × centres
// (or samples × neurons).
#include "probes.hpp"

#include "cluster_geometry.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace feature_averaging {

using namespace featurelab;

Schema ClusterCosineMatrix::schema() {
  Schema s;
  s.integer("group", 1, "average this many consecutive neurons into one equivalent weight (App. E.2: 3)").min(1);
  return s;
}

ClusterCosineMatrix::ClusterCosineMatrix(const Params& params, Context&) : group_(params.integer("group")) {}

void ClusterCosineMatrix::measure(const ProbeInput& in, Measurements& out) {
  const Clusters clusters = clusters_of(&in.features, name());
  const Neurons neurons = neurons_of(in.model, clusters, "cluster-cosine-matrix");
  const Index m = neurons.W.rows(), k = clusters.centres.rows();
  if (m % group_ != 0) throw Error("cluster-cosine-matrix: group = " + std::to_string(group_) + " does not divide the width " + std::to_string(m));
  const Index g = m / group_;
  Mat W(g, neurons.W.cols());
  Mat matched = Mat::Zero(g, k);
  for (Index j = 0; j < g; ++j) {
    W.row(j) = neurons.W.middleRows(j * group_, group_).colwise().mean();
    matched.row(j) = neurons.matched.row(j * group_);  // groups are consecutive neurons of one side/class
  }
  const Vec w_norm = W.rowwise().norm().cwiseMax(Scalar(1e-30));
  const Vec mu_norm = clusters.centres.rowwise().norm();
  const Mat cosine = ((clusters.centres * W.transpose()).array().colwise() / mu_norm.array()).rowwise() /
                     w_norm.transpose().array();  // k×g
  double matched_sum = 0, unmatched_sum = 0, matched_min = 1e300, matched_max = -1e300, unmatched_max = -1e300;
  double unmatched_min = 1e300;
  double decoupling = 0, averaging = 0, spread = 1;
  Index matched_count = 0, unmatched_count = 0;
  for (Index j = 0; j < g; ++j) {
    double lo = 1e300, hi = -1e300;
    Vec direction = Vec::Zero(W.cols());
    for (Index i = 0; i < k; ++i) {
      const double c = cosine(i, j);
      if (matched(j, i) > 0) {
        matched_sum += c;
        ++matched_count;
        matched_min = std::min(matched_min, c);
        matched_max = std::max(matched_max, c);
        lo = std::min(lo, c);
        hi = std::max(hi, c);
        direction += clusters.centres.row(i).transpose();
      } else {
        unmatched_sum += c;
        ++unmatched_count;
        unmatched_max = std::max(unmatched_max, c);
        unmatched_min = std::min(unmatched_min, c);
      }
    }
    decoupling += cosine.col(j).maxCoeff();
    averaging += W.row(j).dot(direction) / (w_norm(j) * std::max(direction.norm(), Scalar(1e-30)));
    if (lo > 0) spread = std::max(spread, hi / lo);
  }
  out.scalar("matched_mean", matched_sum / static_cast<double>(std::max<Index>(1, matched_count)));
  out.scalar("matched_min", matched_min);
  out.scalar("matched_max", matched_max);
  out.scalar("unmatched_mean", unmatched_sum / static_cast<double>(std::max<Index>(1, unmatched_count)));
  out.scalar("unmatched_max", unmatched_max);
  out.scalar("unmatched_min", unmatched_min);
  out.scalar("decoupling", decoupling / static_cast<double>(g));
  out.scalar("averaging", averaging / static_cast<double>(g));
  out.scalar("matched_spread", spread);
  Table table;
  table.values = cosine.cast<double>();
  for (Index i = 0; i < k; ++i) table.row_names.push_back((clusters.sides(i) > 0 ? "mu+" : "mu-") + std::to_string(i));
  for (Index j = 0; j < g; ++j) table.col_names.push_back("w" + std::to_string(j));
  out.table("cosine", std::move(table));
}

Schema FeatureAveragingDistance::schema() { return Schema{}; }

FeatureAveragingDistance::FeatureAveragingDistance(const Params&, Context&) {}

void FeatureAveragingDistance::measure(const ProbeInput& in, Measurements& out) {
  const Clusters clusters = clusters_of(&in.features, name());
  const Neurons neurons = neurons_of(in.model, clusters, "feature-averaging-distance");
  const Mat coef = neurons.W * clusters.centres.transpose();  // m×k: λ̂_{r,j} = ⟨w_r, μ_j⟩
  const double d = static_cast<double>(clusters.centres.cols());
  const double lambda = (coef.array() * neurons.matched.array()).sum() / std::max(1.0, double(neurons.matched.sum()));
  double distance = 0, relative = 0, unmatched = -1e300;
  for (Index r = 0; r < neurons.W.rows(); ++r) {
    const Vec target = static_cast<Scalar>(lambda / d) * (neurons.matched.row(r) * clusters.centres).transpose();
    const double gap = (neurons.W.row(r).transpose() - target).norm();
    distance = std::max(distance, std::sqrt(d) * gap);
    relative = std::max(relative, gap / std::max(double(target.norm()), 1e-30));
    for (Index j = 0; j < coef.cols(); ++j) {
      if (neurons.matched(r, j) == 0) unmatched = std::max(unmatched, double(coef(r, j)));
    }
  }
  out.scalar("lambda", lambda);
  out.scalar("distance", distance);
  out.scalar("relative_distance", relative);
  out.scalar("unmatched_max", unmatched);
  out.scalar("bias_max", neurons.b.size() ? double(neurons.b.cwiseAbs().maxCoeff()) : 0.0);
}

Schema ActivationPattern::schema() { return Schema{}; }

ActivationPattern::ActivationPattern(const Params&, Context&) {}

void ActivationPattern::measure(const ProbeInput& in, Measurements& out) {
  const Clusters clusters = clusters_of(&in.features, name());
  const Neurons neurons = neurons_of(in.model, clusters, "activation-pattern");
  const auto it = in.train.meta.find("cluster");
  if (it == in.train.meta.end()) throw Error("activation-pattern needs the metadata column \"cluster\" (orthogonal-clusters)");
  const Mat Z = (in.train.X * neurons.W.transpose()).rowwise() + neurons.b.transpose();
  double own = 0, opp = 0, own_n = 0, opp_n = 0;
  for (Index i = 0; i < Z.rows(); ++i) {
    const auto c = static_cast<Index>(it->second(i));
    for (Index r = 0; r < Z.cols(); ++r) {
      const bool active = Z(i, r) >= 0;
      if (neurons.matched(r, c) > 0) {
        own += active;
        own_n += 1;
      } else {
        opp += active;
        opp_n += 1;
      }
    }
  }
  out.scalar("own", own / std::max(1.0, own_n));
  out.scalar("opp", opp / std::max(1.0, opp_n));
}

}  // namespace feature_averaging

// Cosines of neurons × centres in one batched product; the summaries over matched and unmatched pairs.
#include "cluster_cosine_matrix_probe.hpp"

#include <featurelab/row_norms.hpp>
#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>
#include <utility>

namespace featurelab::feature_averaging_pack {

Schema ClusterCosineMatrixProbe::schema() {
  Schema s;
  s.integer("group", 1, "average this many consecutive neurons into one equivalent weight (App. E.2: 3)").min(1);
  return s;
}

ClusterCosineMatrixProbe::ClusterCosineMatrixProbe(const Params& params, Context&) : group_(params.integer("group")) {}

void ClusterCosineMatrixProbe::measure(const ProbeInput& in, Measurements& out) {
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
  const MatD cosine = row_cosines(clusters.centres, W);  // k×g, in double
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
    averaging += row_cosines(W.row(j), direction.transpose())(0, 0);
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
  table.values = cosine;
  for (Index i = 0; i < k; ++i) table.row_names.push_back((clusters.sides(i) > 0 ? "mu+" : "mu-") + std::to_string(i));
  for (Index j = 0; j < g; ++j) table.col_names.push_back("w" + std::to_string(j));
  out.table("cosine", std::move(table));
}

}  // namespace featurelab::feature_averaging_pack

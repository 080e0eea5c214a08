// Spherical k-means on the N×N cosine matrix (N = width: small), and the map's two principal directions.
#include "neuron_clusters.hpp"

#include <featurelab/error.hpp>
#include <featurelab/linalg.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace featurelab::feature_emergence_pack {

namespace {

// Deterministic start: the most opposed pair of neurons, then each next centre the neuron least similar
// to the centres chosen so far (farthest point in cosine).
std::vector<Index> starting_neurons(const Eigen::MatrixXd& C, int k) {
  const Index N = C.rows();
  Index i0 = 0, j0 = N > 1 ? 1 : 0;
  for (Index i = 0; i < N; ++i) {
    for (Index j = i + 1; j < N; ++j) {
      if (C(i, j) < C(i0, j0)) i0 = i, j0 = j;
    }
  }
  std::vector<Index> start = {i0, j0};
  while (static_cast<int>(start.size()) < k) {
    Index far = 0;
    double far_sim = std::numeric_limits<double>::infinity();
    for (Index i = 0; i < N; ++i) {
      double sim = -std::numeric_limits<double>::infinity();
      for (Index c : start) sim = std::max(sim, C(i, c));
      if (sim < far_sim) far_sim = sim, far = i;
    }
    start.push_back(far);
  }
  return start;
}

}  // namespace

Schema NeuronClusters::schema() {
  Schema s;
  s.integer("clusters", 2, "k, the number of clusters (Fig. 2.3 / A.13–A.14: 2; SVHN's Fig. A.15: 4)").min(2);
  return s;
}

NeuronClusters::NeuronClusters(const Params& params, Context&) : clusters_(static_cast<int>(params.integer("clusters"))) {}

void NeuronClusters::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  const Mat W = first_layer(in.model, who);
  const Index N = W.rows();
  if (N < clusters_) {
    throw Error(who + ": " + std::to_string(N) + " neurons cannot form " + std::to_string(clusters_) +
                " clusters; lower probe.clusters");
  }
  Eigen::MatrixXd U = W.cast<double>();
  const Eigen::VectorXd norms = U.rowwise().norm();
  for (Index i = 0; i < N; ++i) {
    if (norms(i) > 0) U.row(i) /= norms(i);
  }
  const Eigen::MatrixXd C = U * U.transpose();  // N×N cosines

  // Lloyd's iterations on the sphere: assign to the most similar centre, centre = normalised member mean.
  const int k = clusters_;
  Eigen::MatrixXd centres(k, U.cols());
  const auto start = starting_neurons(C, k);
  for (int c = 0; c < k; ++c) centres.row(c) = U.row(start[static_cast<std::size_t>(c)]);
  std::vector<int> member(static_cast<std::size_t>(N), -1);
  for (int iteration = 0; iteration < 100; ++iteration) {
    const Eigen::MatrixXd S = U * centres.transpose();  // N×k
    bool changed = false;
    for (Index i = 0; i < N; ++i) {
      Index best = 0;
      S.row(i).maxCoeff(&best);
      if (member[static_cast<std::size_t>(i)] != static_cast<int>(best)) changed = true;
      member[static_cast<std::size_t>(i)] = static_cast<int>(best);
    }
    if (!changed) break;
    for (int c = 0; c < k; ++c) {
      Eigen::VectorXd sum = Eigen::VectorXd::Zero(U.cols());
      for (Index i = 0; i < N; ++i) {
        if (member[static_cast<std::size_t>(i)] == c) sum += U.row(i).transpose();
      }
      if (sum.norm() > 0) centres.row(c) = sum.transpose() / sum.norm();  // an emptied cluster keeps its centre
    }
  }

  double within = 0, pairs = 0;
  std::vector<Index> size(static_cast<std::size_t>(k), 0);
  for (Index i = 0; i < N; ++i) {
    ++size[static_cast<std::size_t>(member[static_cast<std::size_t>(i)])];
    for (Index j = i + 1; j < N; ++j) {
      if (member[static_cast<std::size_t>(i)] == member[static_cast<std::size_t>(j)]) within += C(i, j), ++pairs;
    }
  }
  double between = -1;
  for (int a = 0; a < k; ++a) {
    for (int b = a + 1; b < k; ++b) between = std::max(between, centres.row(a).dot(centres.row(b)));
  }
  out.scalar("within", pairs > 0 ? within / pairs : 0.0);
  out.scalar("between", between);
  out.scalar("smallest", static_cast<double>(*std::min_element(size.begin(), size.end())) / static_cast<double>(N));

  // The map: the centred unit neurons along their top two principal directions (through the N×N Gram).
  Eigen::MatrixXd R = U.rowwise() - U.colwise().mean();
  const SymmetricEigen eig = symmetric_eigen(R * R.transpose());
  Table table;
  table.values = Eigen::MatrixXd::Zero(N, 4);
  for (int axis = 0; axis < 2 && axis < N; ++axis) {
    const double lambda = eig.values(N - 1 - axis);
    if (lambda > 1e-12) table.values.col(axis) = eig.vectors.col(N - 1 - axis) * std::sqrt(lambda);
  }
  for (Index i = 0; i < N; ++i) {
    table.values(i, 2) = member[static_cast<std::size_t>(i)];
    table.values(i, 3) = norms(i);
    table.row_names.push_back(std::to_string(i));
  }
  table.col_names = {"x", "y", "cluster", "norm"};
  out.table("map", std::move(table));
}

}  // namespace featurelab::feature_emergence_pack

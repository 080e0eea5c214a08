// Projection onto (v̂, top principal direction ⊥ v̂): two GEMVs and one symmetric eigenproblem.
#include "neuron_map.hpp"

#include "first_layer.hpp"

#include <featurelab/error.hpp>
#include <featurelab/linalg.hpp>

#include <cmath>

namespace featurelab::feature_emergence_pack {

Schema NeuronMap::schema() {
  Schema s;
  s.string("feature", "ground_truth", "the distribution's feature whose first row is the ground-truth direction v");
  return s;
}

NeuronMap::NeuronMap(const Params& params, Context&) : feature_(params.str("feature")) {}

void NeuronMap::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  // First row of the feature: the ground-truth direction v.
  const Mat& F = require_feature(in.features, who, feature_, "set probe.feature to one of them");
  if (F.rows() == 0) throw Error(who + ": feature \"" + feature_ + "\" is empty; set probe.feature to another");
  const Mat W = first_layer(in.model, who);
  const Index N = W.rows(), d = W.cols();
  if (F.cols() != d) {
    throw Error(who + ": feature \"" + feature_ + "\" has length " + std::to_string(F.cols()) + " but the neurons " + std::to_string(d));
  }
  Eigen::VectorXd v = F.row(0).transpose().cast<double>();
  if (v.norm() <= 0) throw Error(who + ": the first row of feature \"" + feature_ + "\" is zero");
  v /= v.norm();
  Eigen::MatrixXd U = W.cast<double>();
  const Eigen::VectorXd norms = U.rowwise().norm();
  for (Index i = 0; i < N; ++i) {
    if (norms(i) > 0) U.row(i) /= norms(i);
  }
  const Eigen::VectorXd x = U * v;
  Eigen::MatrixXd R = U - x * v.transpose();  // components orthogonal to v
  R.rowwise() -= R.colwise().mean();
  Eigen::VectorXd p = Eigen::VectorXd::Zero(d);
  if (N >= 2) {
    if (N <= d) {
      const SymmetricEigen eig = symmetric_eigen(R * R.transpose());
      if (eig.values(N - 1) > 1e-12) p = R.transpose() * eig.vectors.col(N - 1);
    } else {
      const SymmetricEigen eig = symmetric_eigen(R.transpose() * R);
      if (eig.values(d - 1) > 1e-12) p = eig.vectors.col(d - 1);
    }
    p -= p.dot(v) * v;  // orthogonal to v up to rounding: make it exact
    if (p.norm() > 0) p /= p.norm();
  }
  Eigen::VectorXd y = U * p;
  Index far = 0;
  if (N > 0) y.cwiseAbs().maxCoeff(&far);
  if (N > 0 && y(far) < 0) y = -y;
  // Readout signs: a, or a0 + da for the linearised model.
  Eigen::VectorXd a_sign = Eigen::VectorXd::Zero(N);
  const Model& model = in.model;
  if (const ParamBlock* a = model.find_block("a"); a && a->rows == 1 && a->cols == N) {
    a_sign = model.block("a").row(0).transpose().cast<double>().array().sign();
  } else if (model.find_block("a0") && model.find_block("da")) {
    a_sign = (model.block("a0") + model.block("da")).row(0).transpose().cast<double>().array().sign();
  }
  // One row per neuron, then the two reference directions ±v at (±1, 0) (a_sign 0: drawn black).
  Table table;
  table.values = Eigen::MatrixXd::Zero(N + 2, 4);
  table.values.col(0).head(N) = x;
  table.values.col(1).head(N) = y;
  table.values.col(2).head(N) = a_sign;
  table.values.col(3).head(N) = norms;
  table.values(N, 0) = 1;
  table.values(N + 1, 0) = -1;
  table.col_names = {"x", "y", "a_sign", "norm"};
  for (Index i = 0; i < N; ++i) table.row_names.push_back(std::to_string(i));
  table.row_names.push_back("+v");
  table.row_names.push_back("-v");
  double plane = 0, counted = 0;
  for (Index i = 0; i < N; ++i) {
    if (norms(i) <= 0) continue;
    plane += x(i) * x(i) + y(i) * y(i);
    counted += 1;
  }
  out.scalar("in_plane", counted > 0 ? plane / counted : 0.0);
  out.table("map", std::move(table));
}

}  // namespace featurelab::feature_emergence_pack

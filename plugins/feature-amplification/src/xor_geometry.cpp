// Reading neurons, means, metadata and outputs; the candidate sets.
#include "xor_geometry.hpp"

#include <featurelab/row_norms.hpp>
#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>

namespace featurelab::feature_amplification_pack {

XorNeurons xor_neurons(const Model& model, const FeatureSet& features, const std::string& who) {
  const ParamBlock* w = model.find_block("W");
  const ParamBlock* a = model.find_block("a");
  if (!w || !a || a->rows != 1 || a->cols != w->rows) {
    throw Error(who + " reads a two-layer model with one output (blocks W: m×d, a: 1×m; std two-layer, xor-oracle)");
  }
  // The XOR means μ1, μ2, in the model's input space.
  const Mat& means = require_feature(features, who, "means", "use data.use = \"xor-clusters\", which exposes it", 2, w->cols);
  XorNeurons n;
  n.W = model.block("W");
  n.a = model.block("a").row(0).transpose();
  n.means = means;
  n.own.resize(w->rows, w->cols);
  n.other.resize(w->rows, w->cols);
  for (Index j = 0; j < w->rows; ++j) {
    const bool positive = n.a(j) > 0;
    n.own.row(j) = n.means.row(positive ? 0 : 1);
    n.other.row(j) = n.means.row(positive ? 1 : 0);
  }
  return n;
}

const VecD& column(const Dataset& data, const std::string& name, const std::string& who) {
  auto it = data.meta.find(name);
  if (it == data.meta.end()) throw Error(who + " needs the metadata column \"" + name + "\" (xor-clusters, label-noise)");
  return it->second;
}

double quantile(VecD values, double q) {
  if (values.size() == 0) return std::nan("");
  std::sort(values.data(), values.data() + values.size());
  const auto at = static_cast<Index>(std::floor(q * static_cast<double>(values.size() - 1) + 0.5));
  return values(std::clamp<Index>(at, 0, values.size() - 1));
}

Vec outputs_of(Model& model, ConstMatRef X, const std::string& who) {
  if (model.outputs() != 1) throw Error(who + " reads a binary model with one output");
  Mat out(X.rows(), 1);
  model.forward(X, out);
  return out.col(0);
}

CandidateSets candidate_sets(const Mat& W, const Vec& a, const Mat& means, double threshold) {
  CandidateSets sets;
  const VecD norms = row_norms(W).cwiseMax(1e-300);  // in double: a shrunk neuron's float norm underflows
  const MatD corr = (W * means.transpose()).cast<double>().array().colwise() / norms.array();  // m×2
  for (Index j = 0; j < W.rows(); ++j) {
    if (a(j) == 0) continue;
    const int feature = a(j) > 0 ? 0 : 1;
    const double c = corr(j, feature);
    if (c > threshold) sets[static_cast<std::size_t>(2 * feature)].push_back(j);
    if (-c > threshold) sets[static_cast<std::size_t>(2 * feature + 1)].push_back(j);
  }
  return sets;
}

}  // namespace featurelab::feature_amplification_pack

// Sides of neurons from the signs (or the largest entry) of the second layer.
#include "cluster_geometry.hpp"

#include <featurelab/error.hpp>

namespace featurelab::feature_averaging_pack {

Clusters clusters_of(const FeatureSet* features, const std::string& who) {
  const char* fix = "use data.use = \"orthogonal-clusters\", which exposes it";
  Clusters c;
  c.centres = require_feature(features, who, "centres", fix);
  // One side (±1) per centre.
  c.sides = require_feature(features, who, "partition", fix, 1, c.centres.rows()).row(0).transpose().cast<double>();
  return c;
}

Neurons neurons_of(const Model& model, const Clusters& clusters, const std::string& who) {
  const ParamBlock* w = model.find_block("W");
  const ParamBlock* a = model.find_block("a");
  if (!w || !a || a->cols != w->rows) {
    throw Error(who + " reads a two-layer model (blocks W: m×d and a: K×m; std two-layer, feature-construction)");
  }
  if (w->cols != clusters.centres.cols()) {
    throw Error(who + ": the model's inputs (" + std::to_string(w->cols) + ") are not the centres' dimension (" +
                std::to_string(clusters.centres.cols()) + ")");
  }
  const Index m = w->rows, k = clusters.centres.rows(), K = a->rows;
  if (K != 1 && K != k) {
    throw Error(who + ": a model with " + std::to_string(K) + " outputs is neither binary (1) nor one per cluster (" +
                std::to_string(k) + ")");
  }
  Neurons n;
  n.W = model.block("W");
  n.b = model.find_block("b") ? Vec(model.block("b").row(0).transpose()) : Vec(Vec::Zero(m));
  n.matched = Mat::Zero(m, k);
  n.side.resize(static_cast<std::size_t>(m));
  const ConstMatMap A = model.block("a");
  for (Index r = 0; r < m; ++r) {
    if (K == 1) {
      const int s = A(0, r) >= 0 ? 1 : -1;
      n.side[static_cast<std::size_t>(r)] = s;
      for (Index j = 0; j < k; ++j) n.matched(r, j) = clusters.sides(j) == s ? 1 : 0;
    } else {
      Index c = 0;
      A.col(r).maxCoeff(&c);
      n.matched(r, c) = 1;
      n.side[static_cast<std::size_t>(r)] = clusters.sides(c) > 0 ? 1 : -1;
    }
  }
  return n;
}

}  // namespace featurelab::feature_averaging_pack

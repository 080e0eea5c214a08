// Neuron × feature cosines: normalise the rows of both matrices, then one GEMM.
#include "neuron_feature_cosine_probe.hpp"

#include <utility>

#include <featurelab/row_norms.hpp>
#include <featurelab/error.hpp>

namespace featurelab::std_pack {

Schema NeuronFeatureCosineProbe::schema() {
  Schema s;
  s.string("block", "W", "the model's parameter block whose rows are the neurons");
  s.string("features", "means", "the distribution's feature matrix (rows are features)");
  s.boolean("signed", true, "signed cosines; false = |cos| (a neuron aligned with −v counts)");
  s.boolean("antipodes", false, "also score each feature's negative as a feature of its own (rows f, then −f, signed "
                                "cosines): a ReLU neuron along f does not cover −f");
  return s;
}

NeuronFeatureCosineProbe::NeuronFeatureCosineProbe(const Params& params, Context&)
    : block_(params.str("block")), features_(params.str("features")), signed_(params.boolean("signed")),
      antipodes_(params.boolean("antipodes")) {
  if (antipodes_ && !signed_) throw Error("antipodes = true scores f and −f apart, which needs signed = true");
}

void NeuronFeatureCosineProbe::measure(const ProbeInput& in, Measurements& out) {
  if (!in.model.find_block(block_)) {
    std::string names;
    for (const auto& b : in.model.blocks()) names += (names.empty() ? "" : ", ") + b.name;
    throw Error("the model has no parameter block '" + block_ + "' (blocks: " + names + ")");
  }
  const Mat& F = require_feature(in.features, name(), features_, "set probe.features to one of them");
  const ConstMatMap W = std::as_const(in.model).block(block_);
  if (W.cols() != F.cols()) {
    throw Error("block '" + block_ + "' has rows of length " + std::to_string(W.cols()) + " but features '" +
                features_ + "' have length " + std::to_string(F.cols()));
  }
  Mat targets = F;
  if (antipodes_) {
    targets.conservativeResize(2 * F.rows(), Eigen::NoChange);
    targets.bottomRows(F.rows()) = -targets.topRows(F.rows());
  }
  MatD C = row_cosines(W, targets);  // m×F (m×2F with the antipodes), in double (row_norms.hpp)
  if (!signed_) C = C.cwiseAbs();
  const VecD best = C.colwise().maxCoeff().transpose();
  out.scalar("max", C.maxCoeff());
  out.scalar("mean_best", best.mean());
  out.scalar("min_best", best.minCoeff());
  for (Index f = 0; f < best.size(); ++f) out.scalar("best." + std::to_string(f), best(f));
  Table table;
  table.values = C;
  out.table("cosine", std::move(table));
}

}  // namespace featurelab::std_pack

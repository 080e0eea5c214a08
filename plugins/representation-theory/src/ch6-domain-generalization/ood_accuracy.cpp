// One forward pass per split.
#include "ood_accuracy.hpp"
#include "dg_features.hpp"

#include <cmath>
#include <cstdint>
#include <functional>

namespace featurelab::representation_theory_pack {

namespace {

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

}  // namespace featurelab::representation_theory_pack

// Copy by name, then the three passes of each model on the same X and dout.
#include <featurelab/model_comparison.hpp>

#include <featurelab/rng.hpp>

#include <algorithm>
#include <cstdio>

namespace featurelab::testing {

namespace {

double relative(const Mat& a, const Mat& b, double floor = 1e-30) {
  return static_cast<double>((a - b).norm()) / std::max(floor, static_cast<double>(b.norm()));
}

std::string shape_of(const ParamBlock& b, bool transposed) {
  return std::to_string(transposed ? b.cols : b.rows) + "×" + std::to_string(transposed ? b.rows : b.cols);
}

// Gives `composed` the parameters of `hand`; what does not correspond goes into problems.
void copy_parameters(Model& hand, Model& composed, const CompareOptions& options, std::vector<std::string>& problems) {
  for (const ParamBlock& b : hand.blocks()) {
    const ParamBlock* into = composed.find_block(b.name);
    const bool transposed = options.transposed.count(b.name) > 0;
    if (into == nullptr) {
      if (b.trainable) problems.push_back("block '" + b.name + "' has no block of that name in the composition");
      continue;
    }
    const Index rows = transposed ? b.cols : b.rows, cols = transposed ? b.rows : b.cols;
    if (into->rows != rows || into->cols != cols) {
      problems.push_back("block '" + b.name + "' is " + shape_of(b, transposed) + " but the composition's is " +
                         shape_of(*into, false));
      continue;
    }
    if (into->trainable != b.trainable) {
      problems.push_back("block '" + b.name + "' is " + (b.trainable ? "trained" : "fixed") +
                         " but the composition's is not");
      continue;
    }
    if (transposed) {
      composed.block(b.name) = hand.block(b.name).transpose();
    } else {
      composed.block(b.name) = hand.block(b.name);
    }
  }
  for (const ParamBlock& c : composed.blocks()) {
    if (c.trainable && hand.find_block(c.name) == nullptr) {
      problems.push_back("the composition's trained block '" + c.name + "' is not the model's");
    }
  }
}

}  // namespace

std::string ModelComparison::failures(double tolerance, double min_scale) const {
  if (!problems.empty()) {
    std::string text = "the blocks do not correspond:";
    for (const std::string& p : problems) text += " " + p + ";";
    return text;
  }
  std::string text;
  const auto over = [&](const char* what, double value) {
    if (value <= tolerance) return;
    char line[160];
    std::snprintf(line, sizeof line, "%s differ by %.3g relative (tolerance %.3g); ", what, value, tolerance);
    text += line;
  };
  over("the outputs", outputs);
  over("the gradients", gradient);
  over(("the gradients of block '" + worst_block_name + "'").c_str(), worst_block);
  if (input_gradient >= 0) over("the input gradients", input_gradient);
  if (output_scale < min_scale) {
    char line[160];
    std::snprintf(line, sizeof line, "the outputs are at most %.3g: an agreement of near-zeros shows nothing; ", output_scale);
    text += line;
  }
  return text;
}

ModelComparison compare_models(Model& hand, Model& composed, ConstMatRef X, const CompareOptions& options) {
  ModelComparison report;
  if (hand.outputs() != composed.outputs()) {
    report.problems.push_back("the model has " + std::to_string(hand.outputs()) + " outputs, the composition " +
                              std::to_string(composed.outputs()));
    return report;
  }
  copy_parameters(hand, composed, options, report.problems);
  if (!report.problems.empty()) return report;

  Mat out_hand(X.rows(), hand.outputs()), out_composed(X.rows(), composed.outputs());
  hand.forward(X, out_hand);
  composed.forward(X, out_composed);
  report.outputs = relative(out_composed, out_hand);
  report.output_scale = static_cast<double>(out_hand.cwiseAbs().maxCoeff());

  Mat dout(X.rows(), hand.outputs());
  Rng rng(options.seed);
  rng.fill_normal(dout);
  Vec g_hand(hand.trainable_size()), g_composed(composed.trainable_size());
  hand.backward(X, dout, g_hand);
  composed.backward(X, dout, g_composed);
  Vec as_hand = Vec::Zero(g_hand.size());  // the composition's gradient in the hand-written layout
  const double whole = static_cast<double>(g_hand.norm());
  for (const ParamBlock& b : hand.blocks()) {
    if (!b.trainable) continue;
    const ParamBlock& c = *composed.find_block(b.name);
    const Mat h = ConstMatMap(g_hand.data() + b.offset, b.rows, b.cols);
    Mat g = ConstMatMap(g_composed.data() + c.offset, c.rows, c.cols);
    if (options.transposed.count(b.name) > 0) g.transposeInPlace();
    MatMap(as_hand.data() + b.offset, b.rows, b.cols) = g;
    const double difference = relative(g, h, 1e-3 * whole);
    if (difference >= report.worst_block) {
      report.worst_block = difference;
      report.worst_block_name = b.name;
    }
  }
  report.gradient = relative(as_hand, g_hand);

  if (options.input_gradient) {
    Mat dx_hand(X.rows(), X.cols()), dx_composed(X.rows(), X.cols());
    // Each input_gradient is for the last forward(X): both models ran backward since, so forward again.
    hand.forward(X, out_hand);
    hand.input_gradient(X, dout, dx_hand);
    composed.forward(X, out_composed);
    composed.input_gradient(X, dout, dx_composed);
    report.input_gradient = relative(dx_composed, dx_hand);
  }
  return report;
}

}  // namespace featurelab::testing

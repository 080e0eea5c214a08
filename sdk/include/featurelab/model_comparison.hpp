// The same network written twice: a hand-written model and its composition from layers (a `network` whose
// layers name their blocks as the model does, `blocks = [...]`). compare_models() gives the composition the
// model's parameters, runs both on the same inputs and reports how far their outputs, parameter gradients and
// input gradients differ, so a pack's test shows a composition equal to the model it replaces. Free of any test
// framework: the test asserts on the report.
#pragma once

#include <featurelab/model.hpp>

#include <set>
#include <string>
#include <vector>

namespace featurelab::testing {

struct ModelComparison {
  // Relative differences ‖composed − hand‖ / ‖hand‖.
  double outputs = 0;
  double gradient = 0;                // the whole trainable gradient, in the hand-written model's layout
  double worst_block = 0;             // the largest of each trainable block's, see below
  std::string worst_block_name;
  double input_gradient = -1;         // -1: not compared (either model has none)
  double output_scale = 0;            // max |out| of the hand-written model: 0 would make any match trivial
  std::vector<std::string> problems;  // blocks that do not correspond; empty when the layouts match

  // Empty when the layouts match, every difference compared is at most `tolerance` and the outputs are not
  // all below `min_scale` (an agreement of zeros shows nothing); otherwise what failed, with the numbers,
  // for the test to print: CHECK(comparison.failures(1e-5) == "").
  std::string failures(double tolerance, double min_scale = 1e-3) const;
};

struct CompareOptions {
  // Blocks the composition stores transposed (std's linear keeps W as out × in; a model may keep in × out).
  std::set<std::string> transposed;
  bool input_gradient = true;
  std::uint64_t seed = 11;  // of the random dout both backward passes take
};

// Copies every block of `hand` into the block of the same name in `composed` (transposed where asked), then
// compares forward(X), backward(X, dout) and input_gradient(X, dout) for one random dout. Every trained block of
// either model must have its counterpart with the same shape and trainability. A fixed block without one is
// skipped: the model's (a recorded shape) is not needed, the composition's (a fixed per-class sum) keeps the
// value its init gave, so call init on the composition first. A block's difference is
// measured against max(‖its hand gradient‖, 10⁻³‖whole hand gradient‖): a block whose exact gradient is 0
// (a key bias under a softmax) compares as rounding noise against the whole.
ModelComparison compare_models(Model& hand, Model& composed, ConstMatRef X, const CompareOptions& options = {});

}  // namespace featurelab::testing

// Shape checks of an augment's output, run after every apply() (a few integer comparisons).
#include "kernel/job/augment_check.hpp"

#include <featurelab/error.hpp>

namespace featurelab {

void check_augment_output(const ComponentConfig& augment, const Batch& in, const Dataset& out, const DataSpec& spec) {
  const Index n = out.X.rows();
  std::string wrong;
  if (n == 0 && in.n > 0) {
    wrong = "its output has no samples (out.X is " + std::to_string(n) + "x" + std::to_string(out.X.cols()) + ")";
  } else if (out.X.cols() != spec.dim) {
    wrong = "its output's samples have " + std::to_string(out.X.cols()) + " columns, the data's dimension is " +
            std::to_string(spec.dim);
  } else if (out.y.size() != n) {
    wrong = "its output has " + std::to_string(n) + " samples (rows of X) but " + std::to_string(out.y.size()) +
            " labels (y)";
  } else if (out.T.size() > 0 && out.T.rows() != n) {
    wrong = "its output has " + std::to_string(n) + " samples (rows of X) but " + std::to_string(out.T.rows()) +
            " rows of targets (T)";
  } else if (out.classes <= 0 && in.classes > 0) {
    wrong = "its output's classes is " + std::to_string(out.classes) + " (the batch's is " +
            std::to_string(in.classes) + ")";
  }
  if (wrong.empty()) return;
  throw Error(augment.path + " (" + augment.ref.qualified() + "): " + wrong + "; an augment sizes every member of its output: out.resize(m, in.dim, K) "
              "(K = 0 for labels only), then out.classes = in.classes (see featurelab/augment.hpp)");
}

}  // namespace featurelab

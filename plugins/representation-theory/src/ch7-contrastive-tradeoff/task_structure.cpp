#include "task_structure.hpp"

#include <featurelab/error.hpp>

#include <algorithm>

namespace featurelab::representation_theory_pack {

std::vector<Index> TaskStructure::members(int g) const {
  std::vector<Index> out;
  for (Index j = 0; j < d; ++j) {
    if (group[static_cast<std::size_t>(j)] == g) out.push_back(j);
  }
  return out;
}

std::string TaskStructure::group_name(int g) {
  if (g == 0) return "S";
  if (g < 0) return "U";
  return "P" + std::to_string(g - 1);
}

MatD hidden_weights(Model& model, const TaskStructure& ts, const std::string& who) {
  const Index k = model.outputs();
  Mat out(ts.d, k);
  model.forward(ts.atoms, out);
  // Linearity on three inputs: 0, and the sum of the first two atoms.
  Mat probe = Mat::Zero(2, ts.d), image(2, k);
  if (ts.d >= 2) probe.row(1) = ts.atoms.row(0) + ts.atoms.row(1);
  model.forward(probe, image);
  const double scale = std::max(1e-6, static_cast<double>(out.cwiseAbs().maxCoeff()));
  const bool linear = image.row(0).cwiseAbs().maxCoeff() <= 1e-5 * scale &&
                      (ts.d < 2 || (image.row(1) - out.row(0) - out.row(1)).cwiseAbs().maxCoeff() <= 1e-4 * scale);
  if (!linear) {
    throw Error(who + " computes the population error exactly and needs a representation linear in x (φ(x) = Wx); use "
                "model.use = \"linear-representation\"");
  }
  return out.cast<double>();
}

TaskStructure read_task_structure(const FeatureSet* features, const std::string& who) {
  const char* fix = "use data.use = \"multitask-linear\", which exposes the feature groups S, P_t, U";
  auto feature = [&](const char* name, Index rows = kAnyExtent, Index cols = kAnyExtent) -> const Mat& {
    return require_feature(features, who, name, fix, rows, cols);
  };
  TaskStructure t;
  const Mat& setting = feature("setting", 1, 4);  // [s, r, T, spurious]
  t.s = static_cast<Index>(setting(0, 0));
  t.r = static_cast<Index>(setting(0, 1));
  t.T = static_cast<Index>(setting(0, 2));
  t.spurious = static_cast<Index>(setting(0, 3));
  t.atoms = feature("dictionary");
  t.scales = feature("scales");
  t.labels = feature("labels");
  t.mixture = feature("mixture");
  t.d = t.atoms.rows();
  const Mat& groups = feature("groups", 1);
  for (Index j = 0; j < groups.cols(); ++j) t.group.push_back(static_cast<int>(groups(0, j)));
  if (static_cast<Index>(t.group.size()) != t.d || t.scales.rows() != t.T || t.labels.rows() != t.T) {
    throw Error(who + ": the data's features are inconsistent (a distribution bug)");
  }
  return t;
}

}  // namespace featurelab::representation_theory_pack

// What chapter 7's components read from `multitask-linear`'s features: the dictionary and the group of every
// hidden coordinate (S, P_t, U), the per-task scales and label vectors. One parser, so every component refuses
// a distribution without them in the same words.
#pragma once

#include <featurelab/model.hpp>

#include <string>
#include <vector>

namespace featurelab::representation_theory_pack {

struct TaskStructure {
  featurelab::Index s = 0, r = 0, T = 0, spurious = 0, d = 0;
  featurelab::Mat atoms;    // d×d, row j = M e_j
  featurelab::Mat scales;   // T×d, standard deviation of each z coordinate in task t
  featurelab::Mat labels;   // T×d, u_t* on R_t
  featurelab::Mat mixture;  // 1×T
  std::vector<int> group;   // per coordinate: 0 = S, t + 1 = P_t, −1 = U

  // The coordinates of S, of P_t, of U.
  std::vector<featurelab::Index> shared() const { return members(0); }
  std::vector<featurelab::Index> private_of(featurelab::Index t) const { return members(static_cast<int>(t) + 1); }
  std::vector<featurelab::Index> spurious_coordinates() const { return members(-1); }
  std::vector<featurelab::Index> members(int g) const;
  // "S", "P0", …, "U".
  static std::string group_name(int g);
};

// The representation in hidden coordinates: row j = φ(M e_j)ᵀ, i.e. (WM)ᵀ for φ(x) = Wx (d×k, double). The probes'
// exact population formulas need φ linear; a model that is not (φ(0) ≠ 0 or not additive) is refused.
featurelab::MatD hidden_weights(featurelab::Model& model, const TaskStructure& ts, const std::string& who);

// Reads the structure from the features; throws "who: needs the distribution multitask-linear (...)" otherwise.
TaskStructure read_task_structure(const featurelab::FeatureSet* features, const std::string& who);

}  // namespace featurelab::representation_theory_pack

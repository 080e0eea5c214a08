// What the weight penalties l2 and l1 share: λ, the parameter blocks they cover and their check against
// the model.
#pragma once

#include <featurelab/regularizer.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace featurelab::std_pack {

// The trainable blocks a weight penalty covers, as (offset, size) ranges of the parameter vector.
class BlockSelection {
 public:
  void bind(const Model& model, const std::vector<std::string>& names, const std::string& who);
  template <class F>
  void for_each(VecRef theta, VecRef grad, F f) const {
    for (const auto& [offset, size] : ranges_) f(theta.segment(offset, size), grad.segment(offset, size));
  }
  template <class F>
  void for_each(ConstVecRef theta, F f) const {
    for (const auto& [offset, size] : ranges_) f(theta.segment(offset, size));
  }

 private:
  std::vector<std::pair<Index, Index>> ranges_;
};

// What l2 and l1 share: λ, the blocks they cover (parameter `blocks`) and their check against the model.
class WeightPenalty : public Regularizer {
 public:
  static Schema schema();
  // λ = 0 (the default) would check nothing.
  static std::map<std::string, Value> test_params() { return {{"lambda", 0.1}}; }
  WeightPenalty(const Params& params, std::string name);
  void bind(Model& model) override { selection_.bind(model, blocks_, name_); }

 protected:
  double lambda_;
  BlockSelection selection_;

 private:
  std::vector<std::string> blocks_;
  std::string name_;
};

}  // namespace featurelab::std_pack

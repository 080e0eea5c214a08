// The weight penalties' parameters and the blocks they cover.
#include "weight_penalty.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <utility>

namespace featurelab::std_pack {

Schema WeightPenalty::schema() {
  Schema s;
  s.real("lambda", 0.0, "penalty strength λ").min(0);
  s.strings("blocks", {}, "parameter blocks it covers (e.g. [\"W\"]); empty = every trainable block");
  return s;
}

WeightPenalty::WeightPenalty(const Params& params, std::string name)
    : lambda_(params.real("lambda")), blocks_(params.strings("blocks")), name_(std::move(name)) {}

void BlockSelection::bind(const Model& model, const std::vector<std::string>& names, const std::string& who) {
  ranges_.clear();
  for (const auto& b : model.blocks()) {
    const bool wanted = names.empty() || std::find(names.begin(), names.end(), b.name) != names.end();
    if (b.trainable && wanted) ranges_.emplace_back(b.offset, b.size());
  }
  for (const auto& name : names) {
    const ParamBlock* b = model.find_block(name);
    std::string known;
    for (const auto& k : model.blocks()) {
      if (k.trainable) known += (known.empty() ? "" : ", ") + k.name;
    }
    if (!b) throw Error(who + ".blocks names '" + name + "', which the model does not have; its trainable blocks: " + known);
    if (!b->trainable) throw Error(who + ".blocks names '" + name + "', which is frozen; its trainable blocks: " + known);
  }
}

}  // namespace featurelab::std_pack

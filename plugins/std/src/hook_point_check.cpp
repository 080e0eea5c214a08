// A regularizer of features checks in bind() that the model has its hook point.
#include "hook_point_check.hpp"

#include <featurelab/error.hpp>

namespace featurelab::std_pack {

void require_hook_point(const Model& model, const std::string& who, const std::string& hook) {
  std::string known;
  for (const auto& h : model.hook_points()) {
    if (h.name == hook) return;
    known += (known.empty() ? "" : ", ") + h.name;
  }
  throw Error(who + ".hook = \"" + hook + "\" is not a hook point of the model" +
              (known.empty() ? std::string(" (it has none)") : "; it has: " + known));
}

}  // namespace featurelab::std_pack

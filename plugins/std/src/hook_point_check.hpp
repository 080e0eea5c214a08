// The check a regularizer of features makes in bind(): the model has the hook point it reads.
#pragma once

#include <featurelab/model.hpp>

#include <string>

namespace featurelab::std_pack {

// Throws Error "<who>.hook = "<hook>" is not a hook point of the model; it has: …" unless model has hook.
void require_hook_point(const Model& model, const std::string& who, const std::string& hook);

}  // namespace featurelab::std_pack

// What the contract test checks this pack's model, losses and probes with (featurelab/contract.hpp):
// the patch data of Def. 4.1 with three classes and four patches, and a patch CNN of two filters per
// class (its W is class-major and it implements LinearPreactivation, which the exact mixing losses need).
#pragma once

#include <featurelab/contract.hpp>

namespace featurelab::midpoint_mixup_pack {

inline featurelab::ContractData multiview_contract() {
  return {{"multiview-patches", {{"classes", std::int64_t(3)}, {"patches", std::int64_t(4)}}},
          {},
          {"patch-two-layer", {{"neurons", std::int64_t(2)}}},
          {}};
}

}  // namespace featurelab::midpoint_mixup_pack

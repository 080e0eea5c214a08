// Trainer `readout` (Shi 2024 "One Step" / "Two Step", ch. 3's Algorithm 4 and OPT of Def. 3.3):
// freeze the first layer at a snapshot and train the second. The snapshot is what the listed
// phases (phased-gd's keys; none = the init, i.e. random features) leave; then block a is solved
// as a hinge SVM on the frozen hidden layer (readout_solver.hpp), one epoch a step, so its
// accuracy is what the snapshot's features allow rather than what a step budget reached.
#pragma once

#include "phased_gd.hpp"

#include <featurelab/contract.hpp>

namespace featurelab::feature_emergence_pack {

class ReadoutTrainer : public PhasedGd {
 public:
  static constexpr featurelab::Doc kDoc =
      "Freeze the first layer at a snapshot (after the listed phased-gd phases; none = init) and solve the readout a "
      "as a hinge SVM by dual coordinate descent: One Step, Two Step, random features, OPT.";
  static featurelab::Schema schema();
  static std::map<std::string, featurelab::Value> test_params() { return {{"readout_steps", std::int64_t(3)}}; }
  // A readout needs a trainable block a: the chapter's truncated network.
  static featurelab::ContractData contract_data() {
    return {{}, {}, {"truncated-two-layer", {{"width", std::int64_t(8)}}}, {}};
  }
  ReadoutTrainer(const featurelab::Params& params, featurelab::Context& context);
};

}  // namespace featurelab::feature_emergence_pack

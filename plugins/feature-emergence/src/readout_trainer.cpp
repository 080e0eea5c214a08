#include "readout_trainer.hpp"

namespace featurelab::feature_emergence_pack {

Schema ReadoutTrainer::schema() {
  Schema s;
  s.integers("phase_steps", {}, "steps of each phase before the snapshot (e.g. [1, 1]: Two Step); empty = the init").min(0);
  s.reals("phase_lr", {}, "learning rate of each phase before the snapshot").min(0);
  declare_phase_lists(s);
  s.integer("phases", -1, "how many of the listed phases run before the snapshot, −1 = all: with the network's "
                         "own lists One Step is 1, Two Step 2 and random features 0, so the methods share one schedule "
                         "(and one η1)").min(-1);
  s.integer("readout_steps", 100, "epochs of the readout's dual coordinate descent").min(1);
  s.real("readout_smoothing", 0.0, "activation smoothing while the readout trains (models with a smoothing setting)").min(0);
  return s;
}

ReadoutTrainer::ReadoutTrainer(const Params& params, Context& context) : PhasedGd(params, context) {
  keep_first_phases(params.integer("phases"));
  append_readout(params.integer("readout_steps"), params.real("readout_smoothing"));
}

}  // namespace featurelab::feature_emergence_pack

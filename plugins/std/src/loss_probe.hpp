// Probe `loss`: the pipeline's loss on the train and test sets.
#pragma once

#include <featurelab/probe.hpp>

namespace featurelab::std_pack {

class LossProbe : public Probe {
 public:
  static constexpr Doc kDoc = "The pipeline's loss on the train and test sets: metrics train, test.";
  static Schema schema();
  static std::vector<std::string> metrics() { return {"train", "test"}; }
  LossProbe(const Params& params, Context& context);
  void measure(const ProbeInput& in, Measurements& out) override;
};

}  // namespace featurelab::std_pack

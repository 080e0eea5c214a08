// Probe `patch-sources`: which patches a multi-view network reads the label from.
#pragma once

#include "contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::midpoint_mixup_pack {

// In multi-view patch data (Def. 4.1; the authors' released generator) a class-y point's signal
// patches carry only its own features v_{y,1}, v_{y,2} and its noise patches only other classes'
// features. With Q = k − 1 noise classes the noise alone names the label (the one class whose features
// are absent), so test accuracy and Def. 4.5's ablation (which removes v_{y,3−ℓ} and leaves the noise)
// can be perfect for a network that learned no feature of its own class. This probe tests the sources:
//   noise_only   accuracy with every signal patch zeroed
//   signal_only  accuracy with every noise patch zeroed
//   signal_{both,one,none}  the share of classes whose class-y points, with the noise zeroed and each
//                signal patch reduced to its component along one feature v_{y,ℓ}, are classified y at
//                rate ≥ learned_accuracy for both / one / neither feature (the point must carry v_{y,ℓ})
// A patch is a signal patch of a class-y point when most of its energy lies in span{v_{y,1}, v_{y,2}}.
class PatchSourcesProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Which patches the label is read from: test accuracy with the signal patches zeroed (noise_only), with "
      "the noise patches zeroed (signal_only), and per class and feature the signal-only accuracy with only that "
      "feature kept: the share of classes that use both / one / none of their own features.";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() {
    return {"noise_only", "signal_only", "signal_both", "signal_one", "signal_none"};
  }
  static featurelab::ContractData contract_data() { return multiview_contract(); }
  PatchSourcesProbe(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  double learned_accuracy_;
};

}  // namespace featurelab::midpoint_mixup_pack

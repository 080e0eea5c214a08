// Probe `robust-accuracy`: accuracy under the pipeline's attacks, per radius.
#pragma once

#include <featurelab/attack.hpp>
#include <featurelab/probe.hpp>
#include <featurelab/readout.hpp>

namespace featurelab::std_pack {

class RobustAccuracyProbe : public Probe {
 public:
  static constexpr Doc kDoc =
      "Accuracy under the pipeline's [[attack]]s, per radius: the worst case over attacks for each sample; "
      "metrics clean and r=<radius>.";
  static Schema schema();
  static std::vector<std::string> metrics() { return {"clean", "r=*"}; }
  RobustAccuracyProbe(const Params& params, Context& context);
  void measure(const ProbeInput& in, Measurements& out) override;

 private:
  using Robust = Eigen::Array<bool, Eigen::Dynamic, 1>;
  void attack_survivors(Model& model, Attack& attack, const Batch& batch, double radius, Robust& robust);

  std::vector<double> radii_;
  std::string split_;
  Index max_samples_;
  Readout readout_;
  Rng rng_;
  Mat X_adv_, logits_, survivors_, survivor_targets_;  // n or fewer rows: the samples an attack runs on
  IVec survivor_labels_;
};

}  // namespace featurelab::std_pack

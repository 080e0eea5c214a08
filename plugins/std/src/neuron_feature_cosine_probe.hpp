// Probe `neuron-feature-cosine`: cosine of every neuron with every ground-truth feature.
#pragma once

#include <featurelab/probe.hpp>

namespace featurelab::std_pack {

class NeuronFeatureCosineProbe : public Probe {
 public:
  static constexpr Doc kDoc =
      "Cosine of every neuron (row of a weight block) with every ground-truth feature, in one GEMM: the "
      "matrix as table \"cosine\", and max, mean_best, min_best and best.<f> (best neuron per feature; with "
      "antipodes, features F..2F−1 are the negatives).";
  static Schema schema();
  static std::vector<std::string> metrics() { return {"max", "mean_best", "min_best", "best.*"}; }
  NeuronFeatureCosineProbe(const Params& params, Context& context);
  void measure(const ProbeInput& in, Measurements& out) override;

 private:
  std::string block_;
  std::string features_;
  bool signed_;
  bool antipodes_;
};

}  // namespace featurelab::std_pack

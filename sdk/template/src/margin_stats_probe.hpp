// Probe `margin-stats`: the distribution of margins y·f(x) (one output) or f_y − max_{j≠y} f_j
// (several outputs) on the train and test sets: min, mean and the fraction below a threshold.
#pragma once

#include <featurelab/probe.hpp>

namespace margins_pack {

class MarginStatsProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Margins y·f(x) (or f_y − max_{j≠y} f_j) on train and test: min, mean, fraction below a threshold.";
  static featurelab::Schema schema();

  MarginStatsProbe(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  double threshold_;
  featurelab::Mat out_;  // model outputs, reused between evaluations
};

}  // namespace margins_pack

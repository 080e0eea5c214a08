// Probe `accuracy`: accuracy on train and test, overall, balanced over classes, and per value of a metadata column.
#pragma once

#include <featurelab/probe.hpp>
#include <featurelab/readout.hpp>

namespace featurelab::std_pack {

class AccuracyProbe : public Probe {
 public:
  static constexpr Doc kDoc =
      "Accuracy on train and test against the labels (or a metadata column such as y_clean), optionally "
      "per value of a metadata column (e.g. is_noisy), optionally balanced (the mean of the per-class accuracies): "
      "metrics <split>, <split>.balanced and <split>.<column>=<value>.";
  static Schema schema();
  static std::vector<std::string> metrics() { return {"train", "test", "train.balanced", "test.balanced", "train.*=*", "test.*=*"}; }
  AccuracyProbe(const Params& params, Context& context);
  void measure(const ProbeInput& in, Measurements& out) override;

 private:
  std::vector<std::string> splits_;
  std::string against_;
  std::string group_by_;
  bool balanced_;
  Readout readout_;
  Mat out_;
};

}  // namespace featurelab::std_pack

// The std probes: accuracy, loss, weight norms, neuron–feature cosines, robust accuracy.
#pragma once

#include <featurelab/probe.hpp>
#include <featurelab/readout.hpp>

namespace featurelab::std_pack {

class AccuracyProbe : public Probe {
 public:
  static constexpr Doc kDoc =
      "Accuracy on train and test against the labels (or a metadata column such as y_clean), optionally "
      "per value of a metadata column (e.g. is_noisy): metrics <split> and <split>.<column>=<value>.";
  static Schema schema();
  static std::vector<std::string> metrics() { return {"train", "test", "train.*=*", "test.*=*"}; }
  AccuracyProbe(const Params& params, Context& context);
  void measure(const ProbeInput& in, Measurements& out) override;

 private:
  std::vector<std::string> splits_;
  std::string against_;
  std::string group_by_;
  Readout readout_;
  Mat out_;
};

class LossProbe : public Probe {
 public:
  static constexpr Doc kDoc = "The pipeline's loss on the train and test sets: metrics train, test.";
  static Schema schema();
  static std::vector<std::string> metrics() { return {"train", "test"}; }
  LossProbe(const Params& params, Context& context);
  void measure(const ProbeInput& in, Measurements& out) override;
};

class WeightNormsProbe : public Probe {
 public:
  static constexpr Doc kDoc =
      "Norms of every parameter block: <block>.fro, and for matrices the max and mean row norm.";
  static Schema schema();
  static std::vector<std::string> metrics() { return {"*.fro", "*.row_max", "*.row_mean", "W.fro_over_bound", "W.row_over_bound"}; }
  WeightNormsProbe(const Params& params, Context& context);
  void measure(const ProbeInput& in, Measurements& out) override;

 private:
  double lr_;
};

class NeuronFeatureCosineProbe : public Probe {
 public:
  static constexpr Doc kDoc =
      "Cosine of every neuron (row of a weight block) with every ground-truth feature, in one GEMM: the "
      "matrix as table \"cosine\", and max, mean_best, min_best and best.<f> (best neuron per feature).";
  static Schema schema();
  static std::vector<std::string> metrics() { return {"max", "mean_best", "min_best", "best.*"}; }
  NeuronFeatureCosineProbe(const Params& params, Context& context);
  void measure(const ProbeInput& in, Measurements& out) override;

 private:
  std::string block_;
  std::string features_;
  bool signed_;
};

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
  std::vector<double> radii_;
  std::string split_;
  Index max_samples_;
  Readout readout_;
  Rng rng_;
};

}  // namespace featurelab::std_pack

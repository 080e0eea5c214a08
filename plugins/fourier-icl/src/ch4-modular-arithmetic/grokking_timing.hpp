// Probe of training runs on modular addition (Shi 2024 ch. 4, Fig. 4.4):
//   grokking-timing   the first evaluated step at which the train accuracy reaches `threshold` (t_train) and the
//     test accuracy (t_test), −1 until it happens, and their gap t_test − t_train (Fig. 4.4's delayed
//     generalisation); any classifier.
#pragma once

#include "common/contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::fourier_icl_pack {

class GrokkingTiming : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "First evaluated steps at which train and test accuracy reach a threshold, and the gap between them (grokking).";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() { return {"t_train", "t_test", "gap"}; }
  static featurelab::ContractData contract_data() { return modular_transformer_contract(); }
  GrokkingTiming(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  double accuracy(featurelab::Model& model, const featurelab::Dataset& data);
  double threshold_;
  double t_train_ = -1, t_test_ = -1;
  featurelab::Mat scores_;
};

}  // namespace featurelab::fourier_icl_pack

// Probe `few-label-probe`: linear probing (LP) of a hook point's features with few labels, as Shi's dissertation
// (2024, ch. 7, §7.3.1) measures a pretrained representation's label efficiency on a downstream task: a linear
// classifier fitted on the m labelled images of a task (the distribution's features <task>_labelled_inputs and
// _labels), its accuracy on the task's test images (<task>_test_inputs, _labels). The classifier is ridge
// regression onto the centred one-hot labels, solved in its m×m dual (m ≪ k features):
//     Φ = hook(labelled) − μ (m×k), K = ΦΦᵀ, α = (K + ρ·tr(K)/m·I)⁻¹(Y − ȳ), scores(x) = (φ(x) − μ)Φᵀα + ȳ,
// the class of the largest score (the dissertation trains a logistic-regression head instead; with few labels both
// are linear classifiers of the same features, the ridge one without an optimiser's choices).
// task = "splits" probes the pipeline's own data instead: the first `labelled` training samples with their classes,
// scored on the test split (Wen & Li 2021's downstream linear classifier on a contrastive representation).
#pragma once

#include <featurelab/contract.hpp>
#include <featurelab/probe.hpp>

#include <map>
#include <string>
#include <vector>

namespace featurelab::std_pack {

class FewLabelProbe : public Probe {
 public:
  static constexpr Doc kDoc =
      "Linear probe of a hook point's features with few labels: ridge on one-hot labels over features "
      "<task>_labelled_inputs/_labels, accuracy on <task>_test_inputs/_labels (Shi 2024 ch. 7's LP), or with "
      "task = splits on the first `labelled` training samples and the test split; metric accuracy.";
  static Schema schema();
  static std::vector<std::string> metrics() { return {"accuracy"}; }
  static std::map<std::string, Value> test_params() { return {{"hook", std::string("hidden.post")}}; }
  static ContractData contract_data() {
    return {{"mnist-fashion-transfer", {{"pool", std::int64_t(20)}, {"labels_per_class", std::int64_t(2)},
                                        {"test_images", std::int64_t(20)}}},
            {},
            {"two-layer", {{"width", std::int64_t(8)}, {"second_layer", std::string("trainable")}}}};
  }
  FewLabelProbe(const Params& params, Context& context);
  void measure(const ProbeInput& in, Measurements& out) override;

 private:
  std::string task_, hook_;
  double ridge_;
  Index labelled_count_;
  Mat labelled_, test_;
};

}  // namespace featurelab::std_pack

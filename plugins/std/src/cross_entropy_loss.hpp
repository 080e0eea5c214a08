// Loss `cross-entropy`: softmax cross-entropy over K ≥ 2 outputs.
// Returns the mean over the batch and writes d(mean)/d(out).
#pragma once

#include <featurelab/contract.hpp>
#include <featurelab/capabilities.hpp>
#include <featurelab/loss.hpp>

namespace featurelab::std_pack {

class CrossEntropyLoss : public OutputLoss, public SeparableLoss {
 public:
  static constexpr Doc kDoc =
      "Softmax cross-entropy over K ≥ 2 outputs, with hard labels or soft target rows (mixup); optional "
      "label smoothing.";
  static Schema schema();
  // Three classes, and a smooth two-layer net with one trainable output each.
  static ContractData contract_data() {
    return {{"gaussian-mixture", {{"classes", std::int64_t(3)}, {"dim", std::int64_t(6)}, {"sigma", 0.5}}},
            {},
            {"two-layer",
             {{"width", std::int64_t(8)}, {"bias", true}, {"activation", std::string("smoothed-relu")},
              {"second_layer", std::string("trainable")}}},
            {}};
  }
  CrossEntropyLoss(const Params& params, Context& context);
  void check_model(const Model& model, const DataSpec& data) const override;
  Scalar value_and_gradient(ConstMatRef out, const Batch& batch, MatRef dout) const override;
  // A mean over rows: a model may run forward, loss and backward block by block (FusedStep).
  double row_block(ConstMatRef out, const Batch& batch, Index first, Index total, MatRef dout) const override;

 private:
  Scalar smoothing_;
  mutable Mat probs_;
  mutable Vec row_top_, row_sum_, log_norm_;  // per row: max, Σ exp(out − max), max + log Σ (no allocation per step)
};

}  // namespace featurelab::std_pack

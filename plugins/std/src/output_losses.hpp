// The std losses of a model's outputs: cross-entropy, logistic, hinge, squared. Each returns the
// mean over the batch and writes d(mean)/d(out).
#pragma once

#include <featurelab/loss.hpp>
#include <featurelab/tunable.hpp>
#include <featurelab/contract.hpp>

namespace featurelab::std_pack {

class CrossEntropyLoss : public OutputLoss {
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

 private:
  Scalar smoothing_;
  mutable Mat probs_;
};

class LogisticLoss : public OutputLoss {
 public:
  static constexpr Doc kDoc =
      "Logistic loss log(1 + exp(−y f(x))) of one output with y = ±1; a one-column target is the "
      "probability of the positive class (soft labels).";
  static Schema schema();
  LogisticLoss(const Params& params, Context& context);
  void check_model(const Model& model, const DataSpec& data) const override;
  Scalar value_and_gradient(ConstMatRef out, const Batch& batch, MatRef dout) const override;

 private:
  mutable Eigen::Array<Scalar, Eigen::Dynamic, 1> t_;  // the positive class's probability, reused per batch size
};

class HingeLoss : public OutputLoss, public Tunable {
 public:
  static constexpr Doc kDoc =
      "Hinge loss max(0, margin − y f(x)) for one output; multiclass (Crammer–Singer) "
      "max(0, margin + max_{j≠y} f_j − f_y) for several; optionally class-balanced (α_y = 1/(K·Pr̂[y]), Shi 2024 "
      "App. A.8; Tunable \"class_balance\").";
  static Schema schema();
  HingeLoss(const Params& params, Context& context);
  Scalar value_and_gradient(ConstMatRef out, const Batch& batch, MatRef dout) const override;
  void tune(const std::string& setting, double value) override;

 private:
  Scalar margin_;
  bool balanced_;
};

class SquaredLoss : public OutputLoss {
 public:
  static constexpr Doc kDoc =
      "Squared loss ½‖f(x) − t‖² with t the targets, else one-hot labels (K outputs) or ±1 (one output).";
  static Schema schema();
  SquaredLoss(const Params& params, Context& context);
  Scalar value_and_gradient(ConstMatRef out, const Batch& batch, MatRef dout) const override;
};

}  // namespace featurelab::std_pack

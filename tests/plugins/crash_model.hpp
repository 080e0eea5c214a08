// Fixture model `crash-model` (see crash_model.cpp).
#pragma once

#include <featurelab/model.hpp>

namespace fixture {

class CrashModel : public featurelab::Model {
 public:
  static constexpr featurelab::Doc kDoc = "A linear model that crashes, loops, leaks or returns NaN on purpose.";
  static featurelab::Schema schema();
  CrashModel(const featurelab::Params& params, featurelab::Context& context);
  featurelab::Index outputs() const override { return 1; }
  void init(featurelab::Rng& rng) override;
  void forward(featurelab::ConstMatRef X, featurelab::MatRef out) override;
  void backward(featurelab::ConstMatRef X, featurelab::ConstMatRef dout, featurelab::VecRef grad) override;

 private:
  void misbehave();
  std::string mode_;
  std::int64_t at_call_;
  featurelab::Index dim_;
  std::int64_t calls_ = 0;
};

}  // namespace fixture

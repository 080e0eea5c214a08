// check_input_gradient has check_gradient's rounding floor: a correct float model with large
// outputs and a small input gradient passes (the finite difference of its objective is mostly
// rounding, ε·|objective|/h, which is no evidence of a wrong gradient).
#include <featurelab/gradient_check.hpp>

#include <catch2/catch.hpp>

#include <type_traits>

using namespace featurelab;

namespace {

// f(x) = offset + w·x, with its exact parameter and input gradients.
class OffsetLinear : public Model {
 public:
  OffsetLinear(Index dim, Scalar offset, Scalar weight) : offset_(offset) {
    declare_block("w", 1, dim, true);
    allocate_parameters();
    block("w").setConstant(weight);
  }
  Index outputs() const override { return 1; }
  void init(Rng&) override {}
  void forward(ConstMatRef X, MatRef out) override {
    out = (X * block("w").transpose()).array() + offset_;
  }
  void backward(ConstMatRef X, ConstMatRef dout, VecRef grad) override {
    grad = (dout.transpose() * X).transpose();
  }
  void input_gradient(ConstMatRef, ConstMatRef dout, MatRef dX) override { dX = dout * block("w"); }

 private:
  Scalar offset_;
};

Dataset samples(Index n, Index dim) {
  Dataset data;
  Rng rng(3);
  data.resize(n, dim);
  rng.fill_normal(data.X);
  data.y.setZero();
  data.classes = 2;
  return data;
}

}  // namespace

TEST_CASE("a correct float model with large outputs passes the input gradient check") {
  if (!std::is_same_v<Scalar, float>) {
    WARN("skipped in a double build: the case is float rounding (double's default tolerance is 1e-5)");
    return;
  }
  const Dataset data = samples(16, 4);
  OffsetLinear model(4, Scalar(1e4), Scalar(1e-3));
  const auto result = check_input_gradient(model, Batch::of(data));
  INFO(result.report);
  CHECK(result.ok);
}

TEST_CASE("the input gradient check still finds a wrong input gradient") {
  class WrongInputGradient : public OffsetLinear {
   public:
    using OffsetLinear::OffsetLinear;
    void input_gradient(ConstMatRef X, ConstMatRef dout, MatRef dX) override {
      OffsetLinear::input_gradient(X, dout, dX);
      dX *= Scalar(2);
    }
  };
  const Dataset data = samples(16, 4);
  WrongInputGradient plain(4, Scalar(0), Scalar(1));
  const auto result = check_input_gradient(plain, Batch::of(data));
  CHECK_FALSE(result.ok);
  CHECK_THAT(result.report, Catch::Contains("input direction 0: analytic"));
}

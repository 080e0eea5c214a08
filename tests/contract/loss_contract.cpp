// Losses and regularizers: the gradient against finite differences, on the companion model and
// data (a regularizer's penalty alone, at a step where it is on).
#include "setup.hpp"

#include <featurelab/gradient_check.hpp>
#include <featurelab/regularizer.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace featurelab;

namespace {

// The step a regularizer is checked at: after any warm-up a test would set.
constexpr Index kPenaltyStep = 10;

// A regularizer's penalty as a loss, so that check_gradient differentiates it alone.
class PenaltyOnly : public Loss {
 public:
  explicit PenaltyOnly(Regularizer& regularizer) : regularizer_(regularizer) {}
  Scalar evaluate_with_gradient(Model& model, const Batch& batch, VecRef grad) override {
    grad.setZero();
    return regularizer_.add_penalty(model, batch, kPenaltyStep, grad);
  }
  Scalar evaluate(Model& model, const Batch& batch) override { return regularizer_.penalty(model, batch, kPenaltyStep); }

 private:
  Regularizer& regularizer_;
};

}  // namespace

TEST_CASE("losses: the gradient agrees with finite differences") {
  contract::for_each_component(Kind::Loss, [](const contract::Entry& entry) {
    contract::Setup setup = contract::data_for(entry);
    contract::add_model(setup, entry);
    auto loss = contract::make<Loss>(entry, setup);
    loss->check_model(*setup.model, setup.spec);
    const Batch batch = setup.batch();
    const auto result = check_gradient(*setup.model, *loss, batch, contract::gradient_options());
    INFO(result.report);
    CHECK(result.ok);
    CHECK(std::isfinite(static_cast<double>(loss->evaluate(*setup.model, batch))));
  });
}

TEST_CASE("regularizers: the penalty's gradient agrees with finite differences") {
  contract::for_each_component(Kind::Regularizer, [](const contract::Entry& entry) {
    contract::Setup setup = contract::data_for(entry);
    contract::add_model(setup, entry);
    auto regularizer = contract::make<Regularizer>(entry, setup);
    regularizer->bind(*setup.model);
    const Batch batch = setup.batch();
    PenaltyOnly penalty(*regularizer);
    Vec grad(setup.model->trainable_size());
    const double value = static_cast<double>(penalty.evaluate_with_gradient(*setup.model, batch, grad));
    CHECK(std::isfinite(value));
    INFO("penalty " << value);
    CHECK(value == Approx(static_cast<double>(penalty.evaluate(*setup.model, batch))).epsilon(1e-4));
    const auto result = check_gradient(*setup.model, penalty, batch, contract::gradient_options());
    INFO(result.report);
    CHECK(result.ok);
  });
}

// Trainers run their loop on the companion model, loss and data for the steps they announce
// (test_params keep them few), through the SDK's shared loop part (testing::FakeTrainerHost, plus the
// companion augment), which checks every step and the final parameters for finiteness.
#include "setup.hpp"

#include <featurelab/fake_trainer_host.hpp>
#include <featurelab/trainer.hpp>

#include <catch2/catch.hpp>

using namespace featurelab;

namespace {

// FakeTrainerHost with the pipeline's augment, for trainers whose loss reads an augmented layout.
class AugmentingHost : public featurelab::testing::FakeTrainerHost {
 public:
  AugmentingHost(Trainer& trainer, contract::Setup& setup, Optimizer& optimizer)
      : FakeTrainerHost(trainer, *setup.model, *setup.loss, optimizer, *setup.distribution, setup.train, setup.test),
        augment_(setup.augment.get()) {}
  Batch augment(const Batch& in, Rng& rng) override {
    const Batch seen = FakeTrainerHost::augment(in, rng);
    if (!augment_) return seen;
    augment_->apply(seen, out_, rng);
    return Batch::of(out_);
  }

 private:
  Augment* augment_;
  Dataset out_;
};

}  // namespace

TEST_CASE("trainers: run their steps with finite losses and parameters") {
  contract::for_each_component(Kind::Trainer, [](const contract::Entry& entry) {
    contract::Setup setup = contract::data_for(entry);
    contract::add_model(setup, entry);
    contract::add_loss(setup, entry);
    auto trainer = contract::make<Trainer>(entry, setup);
    auto optimizer = contract::make<Optimizer>("std:gd", {}, setup);
    optimizer->reset(setup.model->trainable_size());
    AugmentingHost host(*trainer, setup, *optimizer);
    Rng rng(31);
    host.run(rng);
    CHECK(host.done == trainer->total_steps());
    CHECK(!host.evaluated.empty());
    contract::require_finite(setup.model->parameters(), "parameters after training");
  });
}

// A small training loop for the trainer and callback tests: XOR clusters in d = 2 (200 samples), a two-layer ReLU
// network of 40 units, full-batch GD at `lr` on `loss`, std's `standard` trainer with `trainer_params`, run by the
// SDK's loop in a FakeTrainerHost.
#pragma once

#include "std_harness.hpp"

#include <featurelab/fake_trainer_host.hpp>

#include <memory>
#include <string>

namespace std_test {

struct XorTrainerSetup {
  std::shared_ptr<featurelab::Model> model;
  std::shared_ptr<featurelab::Loss> loss;
  std::shared_ptr<featurelab::Optimizer> optimizer;
  std::shared_ptr<featurelab::Distribution> distribution;
  std::shared_ptr<featurelab::Trainer> trainer;
  std::unique_ptr<featurelab::testing::FakeTrainerHost> host;
};

inline XorTrainerSetup xor_trainer_setup(const Overrides& trainer_params, double lr = 0.1,
                                         const std::string& loss = "logistic") {
  using namespace featurelab;
  DataSpec s;
  s.dim = 2;
  s.classes = 2;
  XorTrainerSetup out;
  out.distribution = harness().make<Distribution>("xor-clusters", {}, {});
  Dataset train;
  Rng rng(4);
  out.distribution->sample(200, Split::Train, rng, train);
  out.model = harness().make<Model>("two-layer", {{"width", std::int64_t(40)}}, s);
  Rng init(5);
  out.model->init(init);
  out.loss = harness().make<Loss>(loss, {}, s);
  out.optimizer = harness().make<Optimizer>("gd", {{"lr", lr}}, s);
  out.trainer = harness().make<Trainer>("standard", trainer_params, s);
  out.host = std::make_unique<testing::FakeTrainerHost>(*out.trainer, *out.model, *out.loss, *out.optimizer,
                                                        *out.distribution, std::move(train));
  return out;
}

}  // namespace std_test

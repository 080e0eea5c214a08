// The companions a component is checked with (setup.hpp).
#include "setup.hpp"

#include <catch2/catch.hpp>

namespace contract {

using namespace featurelab;

namespace {

// Two well-separated Gaussian classes in 6 dimensions: every std model, loss and probe reads them.
const ContractPart kDefaultDistribution{"std:gaussian-mixture",
                                        {{"classes", std::int64_t(2)}, {"dim", std::int64_t(6)}, {"sigma", 0.5}}};
// A small two-layer net with biases (one output for binary data), smooth so that the finite
// differences of the losses and regularizers checked on it never straddle a ReLU kink.
const ContractPart kDefaultModel{"std:two-layer",
                                 {{"width", std::int64_t(8)}, {"bias", true}, {"activation", std::string("smoothed-relu")}}};

}  // namespace

void check_labels(const IVec& y, int classes, const std::string& what) {
  const int end = classes > 0 ? classes : 1;
  for (Index i = 0; i < y.size(); ++i) {
    if (y(i) < 0 || y(i) >= end) {
      FAIL_CHECK(what << ": label " << y(i) << " of sample " << i << " is outside [0, " << end << ")");
      return;
    }
  }
}

Overrides params_of(const Entry& entry) { return entry.info->test_params; }

Batch Setup::batch() {
  const Index rows = std::min<Index>(kBatchRows, train.size());
  const Batch first = Batch::rows(train, 0, rows);
  if (!augment) return first;
  Rng rng(17);
  augment->apply(first, augmented, rng);
  return Batch::of(augmented);
}

Setup data_for(const Entry& entry) {
  Setup setup;
  const ContractData& contract = entry.info->contract;
  const ContractPart& part = contract.distribution.use.empty() ? kDefaultDistribution : contract.distribution;
  setup.distribution = harness().make<Distribution>(part.use, part.params, {}, 1);
  setup.spec = setup.distribution->spec();
  setup.features = setup.distribution->features();
  Rng rng(5);
  for (const Split split : {Split::Train, Split::Test}) {
    const Index available = setup.distribution->available(split);  // finite data sets hold fewer
    const Index n = available < 0 ? kSamples : std::min(kSamples, available);
    setup.distribution->sample(n, split, rng, split == Split::Train ? setup.train : setup.test);
  }
  if (!contract.transform.use.empty()) {
    auto transform = make<Transform>(contract.transform.use, contract.transform.params, setup);
    setup.spec = transform->output_spec(setup.spec);
    transform->apply(setup.train, setup.test, rng);
  }
  if (!contract.augment.use.empty()) {
    setup.augment = make<Augment>(contract.augment.use, contract.augment.params, setup);
  }
  return setup;
}

void add_model(Setup& setup, const Entry& entry) {
  const ContractPart& declared = entry.info->contract.model;
  const ContractPart& part = declared.use.empty() ? kDefaultModel : declared;
  setup.model = make<Model>(part.use, part.params, setup);
  Rng rng(3);
  setup.model->init(rng);
}

void add_loss(Setup& setup, const Entry& entry) {
  const ContractPart& declared = entry.info->contract.loss;
  if (!declared.use.empty()) {
    setup.loss = make<Loss>(declared.use, declared.params, setup);
  } else if (setup.spec.target_cols > 0) {
    setup.loss = make<Loss>("std:squared", {}, setup);
  } else {
    setup.loss = make<Loss>(setup.model->outputs() == 1 ? "std:logistic" : "std:cross-entropy", {}, setup);
  }
  setup.loss->check_model(*setup.model, setup.spec);
}

}  // namespace contract

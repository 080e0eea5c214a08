// Fixture: a valid pack whose model's constructor throws, and whose second pack-level component
// (a loss named like std's) makes unqualified "logistic" ambiguous.
#include "crash_model.hpp"
#include "forgetful_augment.hpp"
#include "keyword_probe.hpp"
#include "slow_probe.hpp"

#include <featurelab/pack.hpp>

#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace {

// Runs when the library is loaded: leaves a mark if asked to, so tests can prove that listing,
// describing and running pipelines that do not use this pack never load it.
const bool kLoadMark = [] {
  if (const char* mark = std::getenv("FEATURELAB_FIXTURE_LOAD_MARK")) std::ofstream(mark) << "loaded\n";
  return true;
}();

class ThrowingModel : public featurelab::Model {
 public:
  static constexpr featurelab::Doc kDoc = "A model whose constructor throws.";
  static featurelab::Schema schema() {
    featurelab::Schema s;
    s.integer("width", 3, "unused").min(1);
    return s;
  }
  ThrowingModel(const featurelab::Params&, featurelab::Context&) {
    throw std::runtime_error("fixture model refuses to be built");
  }
  featurelab::Index outputs() const override { return 1; }
  void init(featurelab::Rng&) override {}
  void forward(featurelab::ConstMatRef, featurelab::MatRef) override {}
  void backward(featurelab::ConstMatRef, featurelab::ConstMatRef, featurelab::VecRef) override {}
};

class ShadowLogistic : public featurelab::OutputLoss {
 public:
  static constexpr featurelab::Doc kDoc = "A loss named like std's logistic.";
  static featurelab::Schema schema() { return {}; }
  ShadowLogistic(const featurelab::Params&, featurelab::Context&) {}
  featurelab::Scalar value_and_gradient(featurelab::ConstMatRef, const featurelab::Batch&,
                                        featurelab::MatRef dout) const override {
    dout.setZero();
    return 0;
  }
};

}  // namespace

FEATURELAB_PACK("fixture", "1.0") {
  pack.add<ThrowingModel>("throwing-model");
  pack.add<ShadowLogistic>("logistic");
  pack.add<fixture::CrashModel>("crash-model");
  pack.add<fixture::ForgetfulAugment>("forgetful-augment");
  pack.add<fixture::KeywordProbe>("keyword-probe");
  pack.add<fixture::SlowProbe>("slow-probe");
}

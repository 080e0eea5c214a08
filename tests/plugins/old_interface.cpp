// Fixture: a pack whose model was compiled against another version of the model interface (its
// interface_id shadows Model's, as an older SDK header would have declared it). ABI and
// fingerprint agree; the core must refuse the component, naming both interface ids.
#include <featurelab/pack.hpp>

namespace {

class OldModel : public featurelab::Model {
 public:
  static constexpr const char* interface_id = "featurelab.model/0";
  static constexpr featurelab::Doc kDoc = "A model built against featurelab.model/0.";
  static featurelab::Schema schema() { return {}; }
  OldModel(const featurelab::Params&, featurelab::Context&) {}
  featurelab::Index outputs() const override { return 1; }
  void init(featurelab::Rng&) override {}
  void forward(featurelab::ConstMatRef, featurelab::MatRef out) override { out.setZero(); }
  void backward(featurelab::ConstMatRef, featurelab::ConstMatRef, featurelab::VecRef grad) override { grad.setZero(); }
};

}  // namespace

FEATURELAB_PACK("old-interface", "1.0") {
  pack.add<OldModel>("old-model");
}

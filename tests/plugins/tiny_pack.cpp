// Fixture: a minimal valid pack (one probe), which tests/CMakeLists.txt compiles with flags other
// than the core's: FEATURELAB_SCALAR_DOUBLE flipped, and other SIMD flags. The core must refuse
// each build naming the field (scalar, simd): the fingerprint is computed with the plugin's own
// flags, in this unit. Its probe calls nothing in the SDK whose symbol depends on the scalar
// type, so the library links and loads in either build and the refusal is the fingerprint's.
#include <featurelab/pack.hpp>

namespace {

class ConstantProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc = "Records one = 1.";
  static featurelab::Schema schema() { return {}; }
  ConstantProbe(const featurelab::Params&, featurelab::Context&) {}
  void measure(const featurelab::ProbeInput&, featurelab::Measurements& out) override { out.scalar("one", 1.0); }
};

}  // namespace

FEATURELAB_PACK("tiny", "1.0") {
  pack.add<ConstantProbe>("constant");
}

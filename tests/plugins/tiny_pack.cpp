// Fixture: a minimal valid pack (one probe), which tests/CMakeLists.txt compiles with flags other
// than the core's: FEATURELAB_SCALAR_DOUBLE flipped, and other SIMD flags. The core must refuse
// each build naming the field (scalar, simd): the fingerprint is computed with the plugin's own
// flags, in this unit. Its probe calls nothing in the SDK whose symbol depends on the scalar
// type, so the library links and loads in either build and the refusal is the fingerprint's; with
// FIXTURE_TINY_TAKES_MATRICES it makes one such call, and built for the other scalar type it cannot load.
// Built without optimisation, it loads, and the core warns (fixture-unoptimized).
#include <featurelab/pack.hpp>
#include <featurelab/rng.hpp>

namespace {

class ConstantProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc = "Records one = 1.";
  static featurelab::Schema schema() { return {}; }
#if defined(FIXTURE_TINY_TAKES_MATRICES)
  // A call whose symbol names the scalar type (Rng::fill_normal(Ref<Mat>)): built for the other one, the library
  // then cannot load at all, and the loader must say why (tests/fingerprint_test.cpp).
  ConstantProbe(const featurelab::Params&, featurelab::Context&) {
    featurelab::Mat noise(2, 2);
    featurelab::Rng(1).fill_normal(noise);
  }
#else
  ConstantProbe(const featurelab::Params&, featurelab::Context&) {}
#endif
  void measure(const featurelab::ProbeInput&, featurelab::Measurements& out) override { out.scalar("one", 1.0); }
};

}  // namespace

FEATURELAB_PACK("tiny", "1.0") {
  pack.add<ConstantProbe>("constant");
}

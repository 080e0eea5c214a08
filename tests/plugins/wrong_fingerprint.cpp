// Fixture: a pack whose fingerprint claims other SIMD flags. The core must name the field.
#include <featurelab/pack.hpp>

namespace {
void register_nothing(featurelab::PackBuilder&) {}
const featurelab::PackHeader* entry() {
  static std::string fingerprint = [] {
    std::string fp = featurelab::build_fingerprint();
    const auto at = fp.find("simd=");
    const auto end = fp.find(';', at);
    return fp.substr(0, at) + "simd=fixture-simd" + fp.substr(end);
  }();
  static const featurelab::PackHeader header = {FEATURELAB_ABI_VERSION, fingerprint.c_str(), "wrong-fingerprint",
                                                "1.0", &register_nothing};
  return &header;
}
}  // namespace
BOOST_DLL_ALIAS(entry, featurelab_pack)

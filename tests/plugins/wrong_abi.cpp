// Fixture: a pack that declares the next ABI. The core must refuse it: "ABI N+1, core expects N".
#include <featurelab/pack.hpp>

namespace {
void register_nothing(featurelab::PackBuilder&) {}
const featurelab::PackHeader* entry() {
  static const std::string fingerprint = featurelab::build_fingerprint();
  static const featurelab::PackHeader header = {FEATURELAB_ABI_VERSION + 1, fingerprint.c_str(), "wrong-abi", "1.0", &register_nothing};
  return &header;
}
}  // namespace
BOOST_DLL_ALIAS(entry, featurelab_pack)

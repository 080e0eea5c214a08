// Fixture: a pack that declares ABI 2. The core must refuse it with "ABI 2, core expects 1".
#include <featurelab/pack.hpp>

namespace {
void register_nothing(featurelab::PackBuilder&) {}
const featurelab::PackHeader* entry() {
  static const std::string fingerprint = featurelab::build_fingerprint();
  static const featurelab::PackHeader header = {2u, fingerprint.c_str(), "wrong-abi", "1.0", &register_nothing};
  return &header;
}
}  // namespace
BOOST_DLL_ALIAS(entry, featurelab_pack)

// Registers the std distributions, trainer, probes and attacks.
#include "registration.hpp"

namespace featurelab::std_pack {

void register_experiment(PackBuilder& pack) {
  (void)pack;
}

}  // namespace featurelab::std_pack

// Registers the std models, losses and optimizers.
#include "registration.hpp"

namespace featurelab::std_pack {

void register_learning(PackBuilder& pack) {
  (void)pack;
}

}  // namespace featurelab::std_pack

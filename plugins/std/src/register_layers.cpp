// Registers the std layers and the `network` model.
#include "layers/activation_layer.hpp"
#include "layers/linear_layer.hpp"
#include "layers/residual_layer.hpp"
#include "layers/scale_layer.hpp"
#include "network_model.hpp"
#include "registration.hpp"

namespace featurelab::std_pack {

void register_layers(PackBuilder& pack) {
  pack.add<NetworkModel>("network");
  pack.add<LinearLayer>("linear");
  pack.add<ActivationLayer>("activation");
  pack.add<ScaleLayer>("scale");
  pack.add<ResidualLayer>("residual");
}

}  // namespace featurelab::std_pack

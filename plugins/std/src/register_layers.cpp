// Registers the std layers and the `network` model.
#include "layers/activation_layer.hpp"
#include "layers/attention_layer.hpp"
#include "layers/concat_layer.hpp"
#include "layers/conv2d_layer.hpp"
#include "layers/conv_block_layer.hpp"
#include "layers/embedding_layer.hpp"
#include "layers/flatten_layer.hpp"
#include "layers/last_token_layer.hpp"
#include "layers/layer_norm_layer.hpp"
#include "layers/linear_layer.hpp"
#include "layers/patches_layer.hpp"
#include "layers/pool_layer.hpp"
#include "layers/residual_layer.hpp"
#include "layers/scale_layer.hpp"
#include "layers/sequential_layer.hpp"
#include "network_model.hpp"
#include "registration.hpp"

namespace featurelab::std_pack {

void register_layers(PackBuilder& pack) {
  pack.add<NetworkModel>("network");
  pack.add<LinearLayer>("linear");
  pack.add<ActivationLayer>("activation");
  pack.add<ScaleLayer>("scale");
  pack.add<ResidualLayer>("residual");
  pack.add<EmbeddingLayer>("embedding");
  pack.add<LayerNormLayer>("layer-norm");
  pack.add<AttentionLayer>("attention");
  pack.add<LastTokenLayer>("last-token");
  pack.add<Conv2dLayer>("conv2d");
  pack.add<ConvBlockLayer>("conv-block");
  pack.add<PoolLayer>("pool");
  pack.add<FlattenLayer>("flatten");
  pack.add<ConcatLayer>("concat");
  pack.add<SequentialLayer>("sequential");
  pack.add<PatchesLayer>("patches");
}

}  // namespace featurelab::std_pack

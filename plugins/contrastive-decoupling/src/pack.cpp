// Pack contrastive-decoupling: Wen & Li, "Toward Understanding the Feature Learning Process of
// Self-supervised Contrastive Learning" — the sparse-coding data, the symmetric ReLU learner with its
// bias schedule, and the probes that measure what was learned. The random-mask augmentation that
// decouples dense from sparse features and the contrastive loss with the paper's stop-gradient are
// std's (random-mask, identity-views, info-nce).
#include "activation_sparsity.hpp"
#include "contrastive_sgd.hpp"
#include "dictionary_alignment.hpp"
#include "linear_probe.hpp"
#include "lucky_neuron_sets.hpp"
#include "noise_alignment.hpp"
#include "sparse_coding.hpp"
#include "symmetric_relu_layer.hpp"

#include <featurelab/pack.hpp>

using namespace featurelab::contrastive_decoupling_pack;

FEATURELAB_PACK("contrastive-decoupling", "0.1.0") {
  pack.add<SparseCoding>("sparse-coding");
  pack.add<SymmetricReluLayer>("symmetric-relu-layer");
  pack.add<ContrastiveSgd>("contrastive-sgd");
  pack.add<DictionaryAlignment>("dictionary-alignment");
  pack.add<NoiseAlignment>("noise-alignment");
  pack.add<ActivationSparsity>("activation-sparsity");
  pack.add<LinearProbe>("linear-probe");
  pack.add<LuckyNeuronSets>("lucky-neuron-sets");
}

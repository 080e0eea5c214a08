// Pack contrastive-decoupling: Wen & Li, "Toward Understanding the Feature Learning Process of
// Self-supervised Contrastive Learning" — the sparse-coding data, the random-mask augmentation that
// decouples dense from sparse features, the symmetric ReLU learner with its bias schedule, the
// contrastive loss with the paper's stop-gradient, and the probes that measure what was learned.
#include "contrastive_sgd.hpp"

#include <featurelab/pack.hpp>

using namespace contrastive_decoupling;

FEATURELAB_PACK("contrastive-decoupling", "0.1.0") {
  (void)pack;  // components are added below
  pack.add<ContrastiveSgd>("contrastive-sgd", ContrastiveSgd::kDoc, ContrastiveSgd::schema());
}

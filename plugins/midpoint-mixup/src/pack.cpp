// Pack midpoint-mixup: Chidambaram et al., "Provably Learning Diverse Features in Multi-View Data
// with Midpoint Mixup" — distributions, the patch CNN, and the exact pair-mixing losses. Fashion-MNIST
// and the sampled augments (mixup, midpoint-mixup) are std's.
#include "feature_correlation_probe.hpp"
#include "feature_learned_probe.hpp"
#include "gradient_alignment_probe.hpp"
#include "midpoint_mixup_exact_loss.hpp"
#include "mixup_exact_loss.hpp"
#include "multiview_patches.hpp"
#include "patch_sources_probe.hpp"
#include "patch_two_layer.hpp"
#include "simple_multiview.hpp"
#include "spurious_concat.hpp"
#include "spurious_gamma.hpp"

#include <featurelab/pack.hpp>

using namespace featurelab::midpoint_mixup_pack;

FEATURELAB_PACK("midpoint-mixup", "0.1.0") {
  pack.add<SimpleMultiview>("simple-multiview");
  pack.add<MultiviewPatches>("multiview-patches");
  pack.add<SpuriousConcat>("spurious-concat");
  pack.add<SpuriousGamma>("spurious-gamma");
  pack.add<PatchTwoLayer>("patch-two-layer");
  pack.add<FeatureLearnedProbe>("feature-learned");
  pack.add<FeatureCorrelationProbe>("feature-correlation");
  pack.add<PatchSourcesProbe>("patch-sources");
  pack.add<GradientAlignmentProbe>("gradient-alignment");
  pack.add<MidpointMixupExactLoss>("midpoint-mixup-exact");
  pack.add<MixupExactLoss>("mixup-exact");
}

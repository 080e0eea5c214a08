// Pack midpoint-mixup: Chidambaram et al., "Provably Learning Diverse Features in Multi-View Data
// with Midpoint Mixup" — distributions, the patch CNN, and pair-mixing augments.
#include "distributions.hpp"
#include "fashion_mnist.hpp"
#include "spurious_concat.hpp"
#include "spurious_gamma.hpp"
#include "feature_probes.hpp"
#include "gradient_alignment_probe.hpp"
#include "midpoint_mixup_loss.hpp"
#include "pair_mixing.hpp"
#include "patch_two_layer.hpp"

#include <featurelab/pack.hpp>

using namespace midpoint_mixup;

FEATURELAB_PACK("midpoint-mixup", "0.1.0") {
  pack.add<SimpleMultiview>("simple-multiview", SimpleMultiview::kDoc, SimpleMultiview::schema());
  pack.add<MultiviewPatches>("multiview-patches", MultiviewPatches::kDoc, MultiviewPatches::schema());
  pack.add<FashionMnist>("fashion-mnist", FashionMnist::kDoc, FashionMnist::schema());
  pack.add<SpuriousConcat>("spurious-concat", SpuriousConcat::kDoc, SpuriousConcat::schema());
  pack.add<SpuriousGamma>("spurious-gamma", SpuriousGamma::kDoc, SpuriousGamma::schema());
  pack.add<PatchTwoLayer>("patch-two-layer", PatchTwoLayer::kDoc, PatchTwoLayer::schema());
  pack.add<Mixup>("mixup", Mixup::kDoc, Mixup::schema());
  pack.add<MidpointMixup>("midpoint-mixup", MidpointMixup::kDoc, MidpointMixup::schema());
  pack.add<FeatureLearnedProbe>("feature-learned", FeatureLearnedProbe::kDoc, FeatureLearnedProbe::schema());
  pack.add<FeatureCorrelationProbe>("feature-correlation", FeatureCorrelationProbe::kDoc, FeatureCorrelationProbe::schema());
  pack.add<GradientAlignmentProbe>("gradient-alignment", GradientAlignmentProbe::kDoc, GradientAlignmentProbe::schema());
  pack.add<MidpointMixupLoss>("midpoint-mixup-exact", MidpointMixupLoss::kDoc, MidpointMixupLoss::schema());
  pack.add<MixupExactLoss>("mixup-exact", MixupExactLoss::kDoc, MixupExactLoss::schema());
}

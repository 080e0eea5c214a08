// Pack feature-emergence: Shi 2024 (dissertation) chapter 2, "A Theoretical Analysis on Feature
// Learning in Neural Networks: Emergence from Inputs and Advantage over Fixed Features" — the
// dictionary data, the truncated-ReLU network with symmetric init, its NTK linearisation, the phased
// training schedule, and the pattern probes.
#include "dictionary_patterns.hpp"
#include "ntk_two_layer.hpp"
#include "pattern_probes.hpp"
#include "phased_gd.hpp"
#include "truncated_two_layer.hpp"

#include <featurelab/pack.hpp>

using namespace feature_emergence;

FEATURELAB_PACK("feature-emergence", "0.1.0") {
  pack.add<DictionaryPatterns>("dictionary-patterns", DictionaryPatterns::kDoc, DictionaryPatterns::schema());
  pack.add<TruncatedTwoLayer>("truncated-two-layer", TruncatedTwoLayer::kDoc, TruncatedTwoLayer::schema());
  pack.add<NtkTwoLayer>("ntk-two-layer", NtkTwoLayer::kDoc, NtkTwoLayer::schema());
  pack.add<PhasedGd>("phased-gd", PhasedGd::kDoc, PhasedGd::schema());
  pack.add<PatternCosine>("pattern-cosine", PatternCosine::kDoc, PatternCosine::schema());
  pack.add<PatternComponents>("pattern-components", PatternComponents::kDoc, PatternComponents::schema());
}

// Each chapter registers its own components, so the chapters stay independent folders.
#pragma once

#include <featurelab/pack.hpp>

namespace featurelab::representation_theory_pack {

void register_chapter6(featurelab::PackBuilder& pack);  // ERM-NU: domain generalization (ch6-domain-generalization/)
void register_chapter7(featurelab::PackBuilder& pack);  // contrastive trade-off (ch7-contrastive-tradeoff/)
void register_chapter8(featurelab::PackBuilder& pack);  // looped linear transformer (ch8-looped-transformer/)

}  // namespace featurelab::representation_theory_pack

// Each chapter registers its own components, so the chapters stay independent files.
#pragma once

#include <featurelab/pack.hpp>

namespace representation_theory {

void register_chapter6(featurelab::PackBuilder& pack);  // ERM-NU: domain generalization (ch6_*.cpp)
void register_chapter7(featurelab::PackBuilder& pack);  // contrastive trade-off (ch7_*.cpp)
void register_chapter8(featurelab::PackBuilder& pack);  // looped linear transformer (ch8_*.cpp)

}  // namespace representation_theory

// The pack's chapters, one folder each; each registers its components (pack.cpp calls them in this order, the
// shared transformer between ch. 5 and ch. 9).
//   ch4-modular-arithmetic/   Fourier features for k-input modular addition: the MLP and the transformers' probes
//   ch5-in-context-learning/  in-context linear regression and sparse parity
//   ch9-gemfilter/            GemFilter on a needle-retrieval transformer
//   common/                   the transformer (ch. 4 and ch. 9) and what the contract test checks components with
#pragma once

#include <featurelab/pack.hpp>

namespace featurelab::fourier_icl_pack {

void add_modular_arithmetic(PackBuilder& pack);   // ch4-modular-arithmetic/register.cpp
void add_in_context_learning(PackBuilder& pack);  // ch5-in-context-learning/register.cpp
void add_gemfilter(PackBuilder& pack);            // ch9-gemfilter/register.cpp

}  // namespace featurelab::fourier_icl_pack

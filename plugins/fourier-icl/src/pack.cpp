// Pack fourier-icl: Shi 2024 dissertation (University of Wisconsin–Madison) chapters 4, 5 and 9 — Fourier
// circuits for k-input modular addition, in-context learning and GemFilter; a folder per chapter (chapters.hpp).
#include "chapters.hpp"
#include "common/transformer.hpp"

#include <featurelab/pack.hpp>

using namespace featurelab::fourier_icl_pack;

FEATURELAB_PACK("fourier-icl", "0.1.0") {
  add_modular_arithmetic(pack);
  add_in_context_learning(pack);
  pack.add<Transformer>("transformer");  // ch. 4's transformers and ch. 9's retrieval model
  add_gemfilter(pack);
}

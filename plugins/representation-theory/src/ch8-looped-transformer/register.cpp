// Chapter 8's components: looped linear transformers that run multi-step gradient descent in context (Shi 2024
// ch. 8, Chen, Li, Liang, Shi, Song, arXiv 2410.11268). Nothing is trained: the model is Lemma 8.13's construction,
// and the probes hold it against plain gradient descent and the chapter's bounds.
#include "../chapters.hpp"
#include "condition_number.hpp"
#include "gd_equivalence.hpp"
#include "loop_error_decay.hpp"
#include "looped_icl_prompts.hpp"
#include "looped_linear_transformer.hpp"

namespace featurelab::representation_theory_pack {

void register_chapter8(featurelab::PackBuilder& pack) {
  pack.add<LoopedIclPrompts>("looped-icl-prompts");
  pack.add<LoopedLinearTransformer>("looped-linear-transformer");
  pack.add<GdEquivalence>("gd-equivalence");
  pack.add<LoopErrorDecay>("loop-error-decay");
  pack.add<ConditionNumber>("condition-number");
}

}  // namespace featurelab::representation_theory_pack

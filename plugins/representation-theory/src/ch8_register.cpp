// Chapter 8's components: looped linear transformers that run multi-step gradient descent in context (Shi 2024
// ch. 8, Chen, Li, Liang, Shi, Song, arXiv 2410.11268). Nothing is trained: the model is Lemma 8.13's construction,
// and the probes hold it against plain gradient descent and the chapter's bounds.
#include "chapters.hpp"
#include "ch8_condition_number_probe.hpp"
#include "ch8_gd_equivalence_probe.hpp"
#include "ch8_loop_error_probe.hpp"
#include "ch8_looped_icl_prompts.hpp"
#include "ch8_looped_transformer.hpp"

namespace representation_theory {

void register_chapter8(featurelab::PackBuilder& pack) {
  pack.add<LoopedIclPrompts>("looped-icl-prompts");
  pack.add<LoopedLinearTransformer>("looped-linear-transformer");
  pack.add<GdEquivalenceProbe>("gd-equivalence");
  pack.add<LoopErrorProbe>("loop-error-decay");
  pack.add<ConditionNumberProbe>("condition-number");
}

}  // namespace representation_theory

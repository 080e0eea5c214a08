// What the contract test checks this pack's components with (featurelab/contract.hpp): the chapters'
// data at a small size, the model each loss, probe and trainer reads, and for chapter 7 the pair
// layout its losses read (resample-spurious: three anchors with their positives, the rest negatives).
#pragma once

#include <featurelab/contract.hpp>

namespace featurelab::representation_theory_pack {

// Sec. 6.4's model with 3 invariant of 8 features and Sec. 6.3.1's toy, each with a small
// out-of-domain set.
inline featurelab::ContractPart dg_theory_part() {
  return {"dg-theory-model", {{"r", std::int64_t(3)}, {"d", std::int64_t(8)}, {"ood", std::int64_t(64)}}};
}
inline featurelab::ContractPart dg_toy_part() { return {"dg-toy-2d", {{"ood", std::int64_t(64)}}}; }

// The diagonal model of Sec. 6.4 (block w, started away from 0) on its data.
inline featurelab::ContractData dg_theory_contract() {
  return {dg_theory_part(), {}, {"feature-weights", {{"init_scale", 0.3}}}, {}};
}
// The toy with Sec. 6.3.1's linear features (hook point "features").
inline featurelab::ContractData dg_toy_contract() { return {dg_toy_part(), {}, {"linear-features", {}}, {}}; }

// Chapter 7's multi-task data, pairs by resample-spurious, the linear representation (with the head
// u that contrastive-regularized trains) and the contrastive loss.
inline featurelab::ContractData multitask_contract() {
  return {{"multitask-linear", {}},
          {"resample-spurious", {{"positives", std::int64_t(3)}}},
          {"linear-representation", {{"head", true}}},
          {"contrastive-inner-product", {}}};
}

// Chapter 8's prompts and the looped transformer at a twentieth of the chapter's loops.
inline featurelab::ContractData looped_contract() {
  return {{"looped-icl-prompts", {}}, {}, {"looped-linear-transformer", {{"loops", std::int64_t(10)}}}, {}};
}

}  // namespace featurelab::representation_theory_pack

// What the contract test checks this pack's components with (featurelab/contract.hpp): the sparse
// coding data with 8 atoms in 32 dimensions (its dictionary, codes and downstream target) and the
// symmetric ReLU learner of 8 neurons.
#pragma once

#include <featurelab/contract.hpp>

namespace featurelab::contrastive_decoupling_pack {

inline featurelab::ContractPart sparse_coding_part() {
  return {"sparse-coding", {{"d", std::int64_t(8)}, {"d1", std::int64_t(32)}}};
}

inline featurelab::ContractData sparse_coding_contract() {
  return {sparse_coding_part(), {}, {"symmetric-relu-layer", {{"width", std::int64_t(8)}}}, {}};
}

// The paper's training step: masked view pairs (four anchors, their positives, four negatives) and
// the contrastive loss.
inline featurelab::ContractData contrastive_training_contract() {
  return {sparse_coding_part(),
          {"random-mask", {{"positives", std::int64_t(4)}}},
          {"symmetric-relu-layer", {{"width", std::int64_t(8)}}},
          {"info-nce", {}}};
}

}  // namespace featurelab::contrastive_decoupling_pack

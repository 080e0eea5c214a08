// What the contract test checks this pack's models and probes with (featurelab/contract.hpp): small
// instances of the chapters' data, and the model each probe reads.
#pragma once

#include <featurelab/contract.hpp>

#include <string>

namespace featurelab::fourier_icl_pack {

// Modular addition over Z_7 (49 tuples, 24 of them train): one-hot for the MLPs, tokens for the transformer.
inline featurelab::ContractPart modular_sum_part(const std::string& encoding) {
  return {"modular-sum", {{"p", std::int64_t(7)}, {"encoding", encoding}}};
}

// The transformer at an eighth of the grokking pipelines' width.
inline std::map<std::string, featurelab::Value> small_transformer_params() {
  return {{"heads", std::int64_t(2)}, {"width", std::int64_t(16)}, {"head_width", std::int64_t(8)},
          {"mlp", std::int64_t(32)}};
}

inline featurelab::ContractData modular_mlp_contract() {
  return {modular_sum_part("one-hot"), {}, {"poly-one-hidden-layer", {}}, {}};
}

inline featurelab::ContractData modular_transformer_contract() {
  return {modular_sum_part("tokens"), {}, {"transformer", small_transformer_params()}, {}};
}

// Needle prompts of 16 tokens; GemFilter reruns the model on the selected tokens at new positions (RoPE).
inline featurelab::ContractData needle_contract() {
  auto transformer = small_transformer_params();
  transformer["layers"] = std::int64_t(2);
  transformer["positions"] = std::string("rope");
  return {{"needle-retrieval", {{"length", std::int64_t(16)}}}, {}, {"transformer", transformer}, {}};
}

inline featurelab::ContractData icl_regression_contract() {
  return {{"icl-linear-regression", {{"context", std::int64_t(8)}, {"shots", std::int64_t(4)}}},
          {},
          {"linear-self-attention", {}},
          {}};
}

inline featurelab::ContractData icl_parity_contract() {
  return {{"icl-sparse-parity", {{"shots", std::int64_t(8)}}}, {}, {"multihead-relu-attention", {}}, {}};
}

}  // namespace featurelab::fourier_icl_pack

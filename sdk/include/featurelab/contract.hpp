// What the contract test (tests/contract) checks a component with, where its defaults do not fit:
// a component declares
//   static featurelab::ContractData contract_data();
// and PackBuilder::add collects it in ComponentInfo::contract, as it does test_params() (the
// parameters the component itself is built with).
//
//   static featurelab::ContractData contract_data() {
//     return {{"xor-clusters", {{"dim", std::int64_t(4)}}}, {}, {"two-layer", {{"width", std::int64_t(8)}}}, {}};
//   }
#pragma once

#include <featurelab/params.hpp>

#include <map>
#include <string>

namespace featurelab {

// A component the contract test builds beside the one it checks: a registry name
// ("xor-clusters"; unqualified, so the declaration survives a component moving between packs) and
// the parameters to build it with.
struct ContractPart {
  std::string use;  // empty: the contract test's default
  std::map<std::string, Value> params;
};

// What a component is checked with where the contract test's defaults (std gaussian-mixture data,
// a small std two-layer model, the loss its outputs call for) do not fit it: the distribution whose
// data or ground-truth features it reads, the augment that writes the batch layout it reads, the
// model whose blocks or hook points it reads, the loss a probe or trainer is handed.
struct ContractData {
  ContractPart distribution;
  ContractPart augment;
  ContractPart model;
  ContractPart loss;
};

}  // namespace featurelab

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
#include <utility>

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
  // A constructor rather than an aggregate, so that a declaration may name only the first parts
  // ({distribution, augment, model, loss}) without -Wmissing-field-initializers.
  ContractData(ContractPart distribution_part = {}, ContractPart augment_part = {}, ContractPart model_part = {},
               ContractPart loss_part = {}, ContractPart transform_part = {})
      : distribution(std::move(distribution_part)),
        augment(std::move(augment_part)),
        model(std::move(model_part)),
        loss(std::move(loss_part)),
        transform(std::move(transform_part)) {}

  ContractPart distribution;
  ContractPart augment;
  ContractPart model;
  ContractPart loss;
  // A transform applied to the distribution's data first, for components that read what it writes
  // (spurious-gamma rescales the halves spurious-concat stores).
  ContractPart transform;
};

}  // namespace featurelab

// What the ch. 2 probes of the first layer share (pattern_cosine.hpp, pattern_components.hpp, neuron_map.hpp):
// the first-layer weights of the network or of its linearisation, the fix when the ground truth is missing, a
// median, and the data the contract test checks them with.
#pragma once

#include <featurelab/contract.hpp>
#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::feature_emergence_pack {

// What the contract test checks the probes of the first layer with: a small dictionary-patterns
// (the ground truth v and the dictionary) and the chapter's truncated network.
inline featurelab::ContractData patterns_contract() {
  return {{"dictionary-patterns",
           {{"dim", std::int64_t(12)}, {"patterns", std::int64_t(6)}, {"relevant", std::int64_t(3)}}},
          {},
          {"truncated-two-layer", {{"width", std::int64_t(8)}}},
          {}};
}

// The first-layer weights of a model: W, or W0 + dW for the linearised model.
featurelab::Mat first_layer(const featurelab::Model& model, const std::string& who);

namespace detail {

// The fix when a probe's ground truth is missing.
inline constexpr const char* kPatternData = "use data.use = \"dictionary-patterns\", which exposes it";

// The median of v (the upper one for an even count; NaN when empty).
double median(std::vector<double> v);

}  // namespace detail

}  // namespace featurelab::feature_emergence_pack

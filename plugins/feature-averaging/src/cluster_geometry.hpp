// What the probes and attacks of this pack read: the distribution's centres and partition, and a
// two-layer model's neurons with the side or class each one serves.
//   one output (Li et al. 2024, Sec. 3.2): neuron r serves the side sign(a_r): its matched centres are J_{sign a_r};
//   k outputs (Sec. 4.2, h neurons per class): neuron r serves the class argmax_c a_{c,r}: one matched centre.
#pragma once

#include <featurelab/contract.hpp>
#include <featurelab/model.hpp>

#include <vector>

namespace featurelab::feature_averaging_pack {

// What the contract test checks this pack's model, attacks and probes with: four orthogonal
// clusters in 16 dimensions (centres and partition) and a small two-layer net with biases.
inline featurelab::ContractData clusters_contract() {
  return {{"orthogonal-clusters", {{"clusters", std::int64_t(4)}, {"dim", std::int64_t(16)}}},
          {},
          {"two-layer", {{"width", std::int64_t(8)}, {"bias", true}}},
          {}};
}

struct Clusters {
  featurelab::Mat centres;   // k×d
  featurelab::VecD sides;    // k, ±1
};

// Throws featurelab::Error naming what is missing (a distribution without centres/partition).
Clusters clusters_of(const featurelab::FeatureSet* features, const std::string& who);

struct Neurons {
  featurelab::Mat W;                // m×d
  featurelab::Vec b;                // m (zeros without a bias)
  featurelab::Mat matched;          // m×k: 1 where centre j is one neuron r serves
  std::vector<int> side;            // m, ±1
};

// Reads blocks W, b (optional) and a of a two-layer model (std two-layer, random-features,
// feature-construction). Throws featurelab::Error for other models or mismatched sizes.
Neurons neurons_of(const featurelab::Model& model, const Clusters& clusters, const std::string& who);

}  // namespace featurelab::feature_averaging_pack

// What this pack's probes read: the XOR means μ1, μ2 (distribution feature "means", 2×d), the
// sign of each neuron's fixed second-layer weight (positive neurons serve ±μ1, negative ±μ2), and
// the cluster metadata (0: +μ1, 1: −μ1, 2: +μ2, 3: −μ2); a binary model's output, and the candidate
// sets J_μ of the proof of Theorem 3.1 (Lemma 4.2) that several probes follow.
#pragma once

#include <featurelab/contract.hpp>
#include <featurelab/model.hpp>
#include <featurelab/probe.hpp>

#include <array>
#include <string>
#include <vector>

namespace featurelab::feature_amplification_pack {

struct XorNeurons {
  featurelab::Mat W;       // m×d, current first layer
  featurelab::Vec a;       // m, second layer (one output)
  featurelab::Mat means;   // 2×d: μ1, μ2
  // Row j: the mean neuron j serves (μ1 if a_j > 0, μ2 if a_j < 0) and the other one.
  featurelab::Mat own, other;
};

// What the contract test checks this pack's probes and reference network with: XOR clusters in 4
// dimensions with flipped labels (the metadata y_clean, is_noisy, cluster the probes split by) and
// a small two-layer net with the paper's fixed balanced second layer.
inline featurelab::ContractData xor_contract() {
  return {{"xor-clusters", {{"dim", std::int64_t(4)}, {"sigma", 0.2}, {"label_noise", 0.2}}},
          {},
          {"two-layer", {{"width", std::int64_t(8)}}},
          {}};
}

// Throws featurelab::Error for a model without blocks W and a (one output) or data without "means".
XorNeurons xor_neurons(const featurelab::Model& model, const featurelab::FeatureSet& features, const std::string& who);

// The metadata column `name` of data, or an Error naming the probe and the column.
const featurelab::VecD& column(const featurelab::Dataset& data, const std::string& name, const std::string& who);

// The q-quantile of values (nearest rank).
double quantile(featurelab::VecD values, double q);

// A binary model's one output on the rows of X (f > 0 predicts class 1, y = +1); an Error naming `who` for a
// model with more outputs.
featurelab::Vec outputs_of(featurelab::Model& model, featurelab::ConstMatRef X, const std::string& who);

// y = ±1 of a 0/1 label.
inline double sign_of_label(double y) { return y > 0.5 ? 1.0 : -1.0; }

// J_μ for μ = +μ1, −μ1, +μ2, −μ2 (cluster order), from the weights at t = 0.
using CandidateSets = std::array<std::vector<featurelab::Index>, 4>;

// The candidate sets of W: neuron j joins J_μ for μ ∈ {±own_j} when ⟨ŵ_j, μ⟩ > threshold.
CandidateSets candidate_sets(const featurelab::Mat& W, const featurelab::Vec& a, const featurelab::Mat& means, double threshold);

// Clusters 0: +μ1, 1: −μ1, 2: +μ2, 3: −μ2; the opposite of c is its mirror image.
inline int opposite(int c) { return c ^ 1; }

}  // namespace featurelab::feature_amplification_pack

// What the pack's probes read: the distribution's features, the sparse codes of a dataset, a model's
// representation (its output or a hook; the parameter that chooses it) and its first-layer weights.
#pragma once

#include <featurelab/probe.hpp>

#include <string>

namespace featurelab::contrastive_decoupling_pack {

// The fix for require_feature when the sparse-coding ground truth is missing.
inline constexpr const char* kSparseCodingData = "use data.use = \"sparse-coding\", which exposes it";

// The sparse codes z of a dataset (n×d) from its meta columns z0..z{d−1} (the sparse-coding distribution).
featurelab::Mat codes(const featurelab::Dataset& data, featurelab::Index d, const std::string& who);

// The parameter hook of the probes that read a representation: empty for the model's output, or a hook point.
featurelab::Schema hook_schema();

// The representation of X: the model's output (hook empty) or a hook point's activations.
void represent(featurelab::Model& model, const std::string& hook, featurelab::ConstMatRef X, featurelab::Mat& out);

// Block W (m×dim) of the model; throws with the fix when it has none or its width differs.
featurelab::Mat weights(const featurelab::Model& model, featurelab::Index dim, const std::string& who);

}  // namespace featurelab::contrastive_decoupling_pack

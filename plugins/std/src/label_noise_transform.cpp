// Choosing the flips and keeping the clean labels.
#include "label_noise_transform.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace featurelab::std_pack {

Schema LabelNoiseTransform::schema() {
  Schema s;
  s.choice("mode", "bernoulli", {"bernoulli", "exact", "per-cluster"}, "how labels are chosen to flip");
  s.real("eta", 0.15, "η: flip probability (bernoulli) or fraction (exact)").range(0, 1);
  s.reals("eta_per_cluster", {}, "per-cluster: η_c for cluster c = 0, 1, ... (metadata column cluster)").range(0, 1);
  s.choice("apply_to", "both", {"train", "test", "both"},
           "which split (Theorem 3.1 measures test error under the noisy law: both)");
  return s;
}

LabelNoiseTransform::LabelNoiseTransform(const Params& params, Context& context)
    : mode_(params.str("mode")),
      eta_(params.real("eta")),
      per_cluster_(params.reals("eta_per_cluster")),
      train_(params.str("apply_to") != "test"),
      test_(params.str("apply_to") != "train") {
  if (context.data.classes != 2) {
    throw Error(context.name + " flips binary labels; this data has " + std::to_string(context.data.classes) + " classes");
  }
  if (mode_ == "per-cluster") {
    if (per_cluster_.empty()) throw Error("mode = \"per-cluster\" needs eta_per_cluster, e.g. [0.4, 0, 0, 0]");
    bool has_cluster = false;
    for (const auto& m : context.data.meta) has_cluster |= m == "cluster";
    if (!has_cluster) throw Error("mode = \"per-cluster\" needs the metadata column \"cluster\" (xor-clusters has it)");
  } else if (!per_cluster_.empty()) {
    throw Error("eta_per_cluster is read only with mode = \"per-cluster\"; remove it or set the mode");
  }
}

DataSpec LabelNoiseTransform::output_spec(const DataSpec& in) const {
  DataSpec out = in;
  for (const char* name : {"y_clean", "is_noisy"}) {
    bool present = false;
    for (const auto& m : out.meta) present |= m == name;
    if (!present) out.meta.push_back(name);
  }
  return out;
}

void LabelNoiseTransform::flip(Dataset& data, Rng& rng, bool active) const {
  const Index n = data.size();
  // A distribution that flipped labels itself keeps its y_clean: these flips compose on top.
  if (!data.meta.count("y_clean")) data.meta["y_clean"] = data.y.cast<double>();
  std::vector<bool> flips(static_cast<std::size_t>(n), false);
  if (!active) {
    // The split keeps its labels but gets the columns the probes read.
  } else if (mode_ == "exact") {
    const auto count = static_cast<Index>(std::llround(eta_ * static_cast<double>(n)));
    const auto order = rng.permutation(n);
    for (Index i = 0; i < count; ++i) flips[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] = true;
  } else {
    const VecD* cluster = mode_ == "per-cluster" ? &data.meta.at("cluster") : nullptr;
    for (Index i = 0; i < n; ++i) {
      double p = eta_;
      if (cluster) {
        const auto c = static_cast<std::size_t>((*cluster)(i));
        if (c >= per_cluster_.size()) {
          throw Error("eta_per_cluster has " + std::to_string(per_cluster_.size()) + " entries, but a sample is in cluster " +
                      std::to_string(c));
        }
        p = per_cluster_[c];
      }
      flips[static_cast<std::size_t>(i)] = rng.uniform() < p;
    }
  }
  for (Index i = 0; i < n; ++i) {
    if (flips[static_cast<std::size_t>(i)]) data.y(i) = 1 - data.y(i);
  }
  const VecD& clean = data.meta.at("y_clean");
  VecD noisy(n);
  for (Index i = 0; i < n; ++i) noisy(i) = static_cast<double>(data.y(i)) != clean(i) ? 1.0 : 0.0;
  data.meta["is_noisy"] = noisy;
}

void LabelNoiseTransform::apply(Dataset& train, Dataset& test, Rng& rng) {
  flip(train, rng, train_);
  flip(test, rng, test_);
}

}  // namespace featurelab::std_pack

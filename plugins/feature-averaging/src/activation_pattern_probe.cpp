// Activation fractions from one batched product over samples × neurons.
#include "activation_pattern_probe.hpp"

#include <featurelab/error.hpp>

#include <algorithm>

namespace featurelab::feature_averaging_pack {

Schema ActivationPatternProbe::schema() { return Schema{}; }

ActivationPatternProbe::ActivationPatternProbe(const Params&, Context&) {}

void ActivationPatternProbe::measure(const ProbeInput& in, Measurements& out) {
  const Clusters clusters = clusters_of(&in.features, name());
  const Neurons neurons = neurons_of(in.model, clusters, "activation-pattern");
  const auto it = in.train.meta.find("cluster");
  if (it == in.train.meta.end()) throw Error("activation-pattern needs the metadata column \"cluster\" (orthogonal-clusters)");
  const Mat Z = (in.train.X * neurons.W.transpose()).rowwise() + neurons.b.transpose();
  double own = 0, opp = 0, own_n = 0, opp_n = 0;
  for (Index i = 0; i < Z.rows(); ++i) {
    const auto c = static_cast<Index>(it->second(i));
    for (Index r = 0; r < Z.cols(); ++r) {
      const bool active = Z(i, r) >= 0;
      if (neurons.matched(r, c) > 0) {
        own += active;
        own_n += 1;
      } else {
        opp += active;
        opp_n += 1;
      }
    }
  }
  out.scalar("own", own / std::max(1.0, own_n));
  out.scalar("opp", opp / std::max(1.0, opp_n));
}

}  // namespace featurelab::feature_averaging_pack

// Margin statistics, computed from one batched forward pass per split.
#include "margin_stats_probe.hpp"

namespace margins_pack {

using namespace featurelab;

Schema MarginStatsProbe::schema() {
  Schema s;
  s.real("threshold", 0.0, "report the fraction of samples whose margin is below this value");
  return s;
}

MarginStatsProbe::MarginStatsProbe(const Params& params, Context&) : threshold_(params.real("threshold")) {}

void MarginStatsProbe::measure(const ProbeInput& in, Measurements& out) {
  for (const auto& [split, data] : {std::pair<const char*, const Dataset*>{"train", &in.train}, {"test", &in.test}}) {
    if (data->size() == 0) continue;
    out_.resize(data->size(), in.model.outputs());
    in.model.forward(data->X, out_);
    Vec margin(data->size());
    if (out_.cols() == 1) {
      for (Index i = 0; i < data->size(); ++i) margin(i) = signed_label(data->y(i)) * out_(i, 0);
    } else {
      for (Index i = 0; i < data->size(); ++i) {
        const Index y = data->y(i);
        Scalar other = -std::numeric_limits<Scalar>::infinity();
        for (Index j = 0; j < out_.cols(); ++j) {
          if (j != y) other = std::max(other, out_(i, j));
        }
        margin(i) = out_(i, y) - other;
      }
    }
    const std::string s = split;
    out.scalar(s + ".min", static_cast<double>(margin.minCoeff()));
    out.scalar(s + ".mean", static_cast<double>(margin.mean()));
    out.scalar(s + ".below", static_cast<double>((margin.array() < static_cast<Scalar>(threshold_)).count()) /
                                 static_cast<double>(margin.size()));
  }
}

}  // namespace margins_pack

// Weight–feature correlations.
#include "feature_correlation_probe.hpp"

#include "class_feature_maxima.hpp"

namespace featurelab::midpoint_mixup_pack {

Schema FeatureCorrelationProbe::schema() {
  Schema s;
  s.boolean("per_class", true, "also record Λ_{y,1}, Λ_{y,2} of every class as scalars v1_class<y>, v2_class<y> "
                               "(curves over training: featurelab plot RUN --metric 'feature-correlation.v*_class*')");
  return s;
}

FeatureCorrelationProbe::FeatureCorrelationProbe(const Params& params, Context&) : per_class_(params.boolean("per_class")) {}

void FeatureCorrelationProbe::measure(const ProbeInput& in, Measurements& out) {
  double off = 0;
  const Mat lambda = class_feature_maxima(in.model, views_of(in, name()), &off);
  const Vec smaller = lambda.rowwise().minCoeff(), larger = lambda.rowwise().maxCoeff();
  out.scalar("smaller_mean", static_cast<double>(smaller.mean()));
  out.scalar("larger_mean", static_cast<double>(larger.mean()));
  out.scalar("smaller_min", static_cast<double>(smaller.minCoeff()));
  out.scalar("off_diagonal", off);
  if (per_class_) {
    for (Index y = 0; y < lambda.rows(); ++y) {
      out.scalar("v1_class" + std::to_string(y), static_cast<double>(lambda(y, 0)));
      out.scalar("v2_class" + std::to_string(y), static_cast<double>(lambda(y, 1)));
    }
  }
  Table table;
  table.values = lambda.cast<double>();
  table.col_names = {"v1", "v2"};
  out.table("lambda", std::move(table));
}

}  // namespace featurelab::midpoint_mixup_pack

// One forward pass and one product with the means.
#include "reference_agreement_probe.hpp"

#include <algorithm>

namespace featurelab::feature_amplification_pack {

void ReferenceAgreementProbe::measure(const ProbeInput& in, Measurements& out) {
  const Mat& means = require_feature(in.features, name(), "means", "use data.use = \"xor-clusters\", which exposes it", 2,
                                     in.test.dim());  // μ1, μ2
  const Vec f = outputs_of(in.model, in.test.X, name());
  const Mat proj = in.test.X * means.transpose();  // n×2
  const Vec reference = proj.col(0).cwiseAbs() - proj.col(1).cwiseAbs();
  double agree = 0;
  for (Index i = 0; i < f.size(); ++i) agree += (f(i) > 0) == (reference(i) > 0) ? 1 : 0;
  out.scalar("agreement", agree / static_cast<double>(std::max<Index>(1, f.size())));
}

}  // namespace featurelab::feature_amplification_pack

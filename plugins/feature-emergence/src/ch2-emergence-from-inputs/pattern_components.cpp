// Components as one product W·Mᵀ.
#include "pattern_components.hpp"

#include <featurelab/row_norms.hpp>
#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace featurelab::feature_emergence_pack {

using detail::kPatternData;
using detail::median;

Schema PatternComponents::schema() {
  Schema s;
  s.real("near", 0.5, "neurons with |cos(w, v)| at least this are examined").range(0, 1);
  return s;
}

PatternComponents::PatternComponents(const Params& params, Context&) : near_(params.real("near")) {}

void PatternComponents::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  const Mat& v = require_feature(in.features, who, "ground_truth", kPatternData);
  const Mat& M = require_feature(in.features, who, "dictionary", kPatternData);
  const Mat& relevant = require_feature(in.features, who, "relevant", kPatternData);
  const Mat W = first_layer(in.model, who);
  const Mat q = W * M.transpose();  // 2m×D: q_{i,l} = <w_i, M_l>
  const VecD cos = row_cosines(W, v.topRows(1)).col(0);  // in double: a shrunk neuron's float norm underflows
  std::vector<double> ratio, spread;
  double same_sign = 0, examined = 0;
  for (Index i = 0; i < W.rows(); ++i) {
    if (std::abs(cos(i)) < near_) continue;
    double signal = 0, noise = 0, lo = 1e300, hi = 0;
    int positive = 0, negative = 0;
    for (Index l = 0; l < q.cols(); ++l) {
      const double c = q(i, l);
      if (relevant(0, l) > 0) {
        signal += c * c;
        lo = std::min(lo, std::abs(c));
        hi = std::max(hi, std::abs(c));
        (c > 0 ? positive : negative)++;
      } else {
        noise += c * c;
      }
    }
    ratio.push_back(std::sqrt(noise / std::max(signal, 1e-300)));
    if (lo > 0) spread.push_back(hi / lo);
    same_sign += (positive == 0 || negative == 0) ? 1 : 0;
    examined += 1;
  }
  out.scalar("examined", examined);
  if (examined == 0) return;
  out.scalar("noise_signal_median", median(ratio));
  out.scalar("same_sign", same_sign / examined);
  if (!spread.empty()) out.scalar("spread_median", median(spread));
}

}  // namespace featurelab::feature_emergence_pack

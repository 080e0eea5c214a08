// Cosines as one product W·vᵀ; components as one product W·Mᵀ.
#include "pattern_probes.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace feature_emergence {

using namespace featurelab;

namespace {
// The fix when a probe's ground truth is missing.
constexpr const char* kPatternData = "use data.use = \"dictionary-patterns\", which exposes it";
double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}
}  // namespace

Mat first_layer(const Model& model, const std::string& who) {
  if (model.find_block("W")) return model.block("W");
  if (model.find_block("W0") && model.find_block("dW")) return model.block("W0") + model.block("dW");
  throw Error(who + " reads the first layer: a model with block W (or W0 and dW)");
}

void PatternCosine::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  const Mat& v = require_feature(in.features, who, "ground_truth", kPatternData);
  const Mat W = first_layer(in.model, who);
  if (W.cols() != v.cols()) throw Error(who + ": the model's inputs and the ground truth differ in dimension");
  const Vec norms = W.rowwise().norm().cwiseMax(Scalar(1e-30));
  const Vec cos = (W * v.row(0).transpose()).array() / (norms.array() * v.norm());
  out.scalar("max", static_cast<double>(cos.maxCoeff()));
  out.scalar("max_neg", static_cast<double>((-cos).maxCoeff()));
  std::vector<double> abs(static_cast<std::size_t>(cos.size()));
  for (Index i = 0; i < cos.size(); ++i) abs[static_cast<std::size_t>(i)] = std::abs(cos(i));
  out.scalar("median_abs", median(abs));
}

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
  const Vec norms = W.rowwise().norm().cwiseMax(Scalar(1e-30));
  const Vec cos = (W * v.row(0).transpose()).array() / (norms.array() * v.norm());
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

}  // namespace feature_emergence

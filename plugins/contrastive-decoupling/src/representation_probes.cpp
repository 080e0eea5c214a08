// Three batched forwards (x, Mz, ξ) for noise-alignment, one for activation-sparsity.
#include "representation_probes.hpp"
#include "probe_inputs.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace contrastive_decoupling {

using namespace featurelab;

namespace {
Schema hook_schema() {
  Schema s;
  s.string("hook", "", "the representation: empty for the model's output, or a hook point (\"hidden.post\")");
  return s;
}
}  // namespace

Schema NoiseAlignment::schema() { return hook_schema(); }
NoiseAlignment::NoiseAlignment(const Params& params, Context&) : hook_(params.str("hook")) {}

void NoiseAlignment::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  const Mat& M = require_feature(in.features, who, "dictionary", kSparseCodingData);
  if (in.test.size() == 0) throw Error(who + " measures on the test split: set data.test > 0");
  if (in.test.dim() != M.cols()) throw Error(who + ": the test inputs and the dictionary differ in dimension");
  signal_.noalias() = codes(in.test, M.rows(), who) * M;  // Mz
  noise_ = in.test.X - signal_;                          // ξ
  represent(in.model, hook_, in.test.X, fx_);
  represent(in.model, hook_, signal_, fs_);
  represent(in.model, hook_, noise_, fn_);
  const VecD nx = fx_.rowwise().norm().cast<double>();
  const VecD ns = fs_.rowwise().norm().cast<double>();
  const VecD nn = fn_.rowwise().norm().cast<double>();
  const VecD dots = (fx_.array() * fn_.array()).rowwise().sum().cast<double>();
  const VecD err = (fx_ - fs_).rowwise().norm().cast<double>();
  double cos_sum = 0, rel_sum = 0;
  Index cos_n = 0, rel_n = 0;
  for (Index i = 0; i < nx.size(); ++i) {
    if (nx(i) > 0 && nn(i) > 0) {
      cos_sum += dots(i) / (nx(i) * nn(i));
      ++cos_n;
    }
    if (ns(i) > 0) {
      rel_sum += err(i) / ns(i);
      ++rel_n;
    }
  }
  out.scalar("cos_noise", cos_n > 0 ? cos_sum / static_cast<double>(cos_n) : std::nan(""));
  out.scalar("relative_error", rel_n > 0 ? rel_sum / static_cast<double>(rel_n) : std::nan(""));
  out.scalar("error", err.mean());
  out.scalar("signal_norm", ns.mean());
  out.scalar("zero_signal", (ns.array() == 0).cast<double>().mean());
  out.scalar("zero_noise", (nn.array() == 0).cast<double>().mean());
}

Schema ActivationSparsity::schema() { return hook_schema(); }
ActivationSparsity::ActivationSparsity(const Params& params, Context&) : hook_(params.str("hook")) {}

void ActivationSparsity::measure(const ProbeInput& in, Measurements& out) {
  if (in.test.size() == 0) throw Error("activation-sparsity measures on the test split: set data.test > 0");
  represent(in.model, hook_, in.test.X, f_);
  const MatD fires = (f_.array() != Scalar(0)).cast<double>().matrix();
  const VecD rate = fires.colwise().mean().transpose();
  std::vector<double> sorted(rate.data(), rate.data() + rate.size());
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<long>(sorted.size() / 2), sorted.end());
  out.scalar("density", fires.mean());
  out.scalar("rate_max", rate.maxCoeff());
  out.scalar("rate_median", sorted[sorted.size() / 2]);
  out.scalar("dead", (rate.array() == 0).cast<double>().mean());
}

}  // namespace contrastive_decoupling

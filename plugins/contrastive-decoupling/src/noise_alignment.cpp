// Three batched forwards (x, Mz, ξ).
#include "noise_alignment.hpp"
#include "probe_inputs.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace featurelab::contrastive_decoupling_pack {

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
  // Over every sample, those with f(Mz) = 0 included (z = 0, or no atom above its threshold), where a
  // representation that follows the noise shows: E‖f(x) − f(Mz)‖ / E‖f(Mz)‖.
  out.scalar("error_ratio", ns.mean() > 0 ? err.mean() / ns.mean() : std::nan(""));
  out.scalar("signal_norm", ns.mean());
  out.scalar("zero_signal", (ns.array() == 0).cast<double>().mean());
  out.scalar("zero_noise", (nn.array() == 0).cast<double>().mean());
}

}  // namespace featurelab::contrastive_decoupling_pack

// One batched forward.
#include "activation_sparsity.hpp"
#include "probe_inputs.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <vector>

namespace featurelab::contrastive_decoupling_pack {

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

}  // namespace featurelab::contrastive_decoupling_pack

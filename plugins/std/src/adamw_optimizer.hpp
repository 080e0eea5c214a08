// Optimizer `adamw`: Adam with decoupled weight decay, as torch.optim.AdamW.
// Each step is one fused pass over the flat parameter vector.
#pragma once

#include "adam_optimizer.hpp"

namespace featurelab::std_pack {

class AdamwOptimizer : public AdamOptimizer {
 public:
  static constexpr Doc kDoc = "AdamW: Adam with decoupled weight decay θ ← θ − lr·wd·θ (Loshchilov & Hutter).";
  static Schema schema();
  AdamwOptimizer(const Params& params, Context& context) : AdamOptimizer(params, context, true) {}
};

}  // namespace featurelab::std_pack

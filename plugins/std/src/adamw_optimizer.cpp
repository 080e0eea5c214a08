// AdamW: Adam's update with the weight decay decoupled (adam_optimizer.cpp), as torch.optim.AdamW.
#include "adamw_optimizer.hpp"

namespace featurelab::std_pack {

Schema AdamwOptimizer::schema() { return adam_schema(0.01, "decoupled weight decay: θ ← θ − lr·wd·θ"); }

}  // namespace featurelab::std_pack

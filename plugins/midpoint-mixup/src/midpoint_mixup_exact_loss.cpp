#include "midpoint_mixup_exact_loss.hpp"

namespace featurelab::midpoint_mixup_pack {

Schema MidpointMixupExactLoss::schema() { return Schema{}; }

MidpointMixupExactLoss::MidpointMixupExactLoss(const Params&, Context&) : ExactPairMixingLoss(beta_quadrature(1.0, 1)) {}

}  // namespace featurelab::midpoint_mixup_pack

#include "mixup_exact_loss.hpp"

namespace featurelab::midpoint_mixup_pack {

Schema MixupExactLoss::schema() {
  Schema s;
  s.real("alpha", 1.0, "λ ~ Beta(alpha, alpha); 1 is uniform mixup (Prop. 3.3)").above(0);
  s.integer("quadrature_nodes", 64, "Gauss–Jacobi nodes for E_λ (exact for polynomials of degree < 2·nodes)")
      .range(1, 1000);
  return s;
}

MixupExactLoss::MixupExactLoss(const Params& params, Context&)
    : ExactPairMixingLoss(beta_quadrature(params.real("alpha"), static_cast<int>(params.integer("quadrature_nodes")))) {}

}  // namespace featurelab::midpoint_mixup_pack

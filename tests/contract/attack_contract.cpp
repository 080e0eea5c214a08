// Attacks stay within their radius: ‖x_adv − x‖ ≤ r for every sample, in the attack's norm (its
// `norm` parameter where it has one, ℓ2 otherwise), on the companion model and data.
#include "setup.hpp"

#include <featurelab/attack.hpp>

#include <catch2/catch.hpp>

#include <limits>

using namespace featurelab;

TEST_CASE("attacks: perturbations stay within the radius") {
  contract::for_each_component(Kind::Attack, [](const contract::Entry& entry) {
    contract::Setup setup = contract::data_for(entry);
    contract::add_model(setup, entry);
    auto attack = contract::make<Attack>(entry, setup);
    const Params params = featurelab::testing::resolve(entry.info->schema, contract::params_of(entry));
    const bool linf = params.has("norm") && params.str("norm") == "linf";
    const Batch batch = setup.batch();
    for (const double radius : {0.1, 1.0}) {
      Mat X_adv(batch.n, batch.dim);
      Rng rng(23);
      attack->perturb(*setup.model, batch, radius, X_adv, rng);
      contract::require_finite(X_adv, "perturbed samples");
      const Mat delta = X_adv - batch.X();
      // The rounding of x + δ in the scalar type.
      const double slack = 64 * std::numeric_limits<Scalar>::epsilon() *
                           (1.0 + radius + static_cast<double>(batch.X().cwiseAbs().maxCoeff()));
      for (Index i = 0; i < batch.n; ++i) {
        const double size = linf ? static_cast<double>(delta.row(i).cwiseAbs().maxCoeff())
                                 : static_cast<double>(delta.row(i).norm());
        INFO("sample " << i << ": ‖δ‖" << (linf ? "∞" : "₂") << " = " << size << ", radius " << radius);
        CHECK(size <= radius + slack);
      }
    }
  });
}

// Optimizers decrease a quadratic: f(θ) = ½ Σ_i a_i θ_i² with curvatures a_i in [0.5, 2], from a
// random start, in a few hundred steps of its own update rule and default learning rate.
#include "setup.hpp"

#include <featurelab/optimizer.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace featurelab;

TEST_CASE("optimizers: decrease a quadratic") {
  contract::for_each_component(Kind::Optimizer, [](const contract::Entry& entry) {
    constexpr Index kSize = 24;
    constexpr Index kSteps = 200;
    contract::Setup setup;  // no data: an optimizer sees only θ and its gradient
    setup.spec.dim = kSize;
    auto optimizer = contract::make<Optimizer>(entry, setup);
    Rng rng(19);
    Mat start(kSize, 1), curvature(kSize, 1);
    rng.fill_normal(start);
    rng.fill_uniform(curvature, 0.5, 2.0);
    const Vec a = curvature.col(0);
    Vec theta = start.col(0);
    auto f = [&a](const Vec& t) { return 0.5 * static_cast<double>(a.dot(t.cwiseProduct(t))); };
    const double initial = f(theta);
    optimizer->reset(kSize);
    Vec grad(kSize);
    for (Index t = 0; t < kSteps; ++t) {
      grad = a.cwiseProduct(theta);
      optimizer->step(theta, grad, t);
    }
    const double final_value = f(theta);
    INFO("f(θ) from " << initial << " to " << final_value << " in " << kSteps << " steps");
    CHECK(std::isfinite(final_value));
    CHECK(final_value < initial);
  });
}

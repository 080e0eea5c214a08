// Activations: φ and φ' finite, φ' against central differences of φ, value() and derivative()
// agreeing with apply(), and a block of rows computing what the whole matrix does (models call
// them on row blocks from parallel loops).
#include "setup.hpp"

#include <featurelab/activation.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <type_traits>

using namespace featurelab;

TEST_CASE("activations: derivative against finite differences, blocks agree with the whole") {
  contract::for_each_component(Kind::Activation, [](const contract::Entry& entry) {
    constexpr bool kFloat = std::is_same_v<Scalar, float>;
    const double h = kFloat ? 1e-3 : 1e-6;
    const double tolerance = kFloat ? 1e-2 : 1e-6;
    contract::Setup setup;
    auto activation = contract::make<ActivationFunction>(entry, setup);
    Rng rng(37);
    Mat Z(12, 5);
    rng.fill_uniform(Z, -3.0, 3.0);
    Mat H(12, 5), D(12, 5);
    activation->apply(Z, H, D);
    contract::require_finite(H, "values");
    contract::require_finite(D, "derivatives");

    Mat H_only(12, 5), D_only(12, 5);
    activation->value(Z, H_only);
    activation->derivative(Z, D_only);
    CHECK((H_only - H).cwiseAbs().maxCoeff() <= tolerance * (1 + H.cwiseAbs().maxCoeff()));
    CHECK((D_only - D).cwiseAbs().maxCoeff() <= tolerance * (1 + D.cwiseAbs().maxCoeff()));

    Mat up(12, 5), down(12, 5);
    activation->value((Z.array() + Scalar(h)).matrix(), up);
    activation->value((Z.array() - Scalar(h)).matrix(), down);
    const Mat numeric = (up - down) / Scalar(2 * h);
    for (Index i = 0; i < Z.rows(); ++i) {
      for (Index j = 0; j < Z.cols(); ++j) {
        INFO("φ'(" << Z(i, j) << ") = " << D(i, j) << ", finite difference " << numeric(i, j));
        CHECK(std::abs(double(D(i, j) - numeric(i, j))) <= tolerance * (1 + std::abs(double(D(i, j)))));
      }
    }

    Mat H_block(4, 5), D_block(4, 5);
    activation->apply(Z.middleRows(4, 4), H_block, D_block);
    CHECK(H_block == H.middleRows(4, 4));
    CHECK(D_block == D.middleRows(4, 4));
  });
}

// row_norms.hpp: norms and cosines of rows in double, where float's squared norm underflows.
#include <featurelab/row_norms.hpp>

#include <catch2/catch.hpp>

using namespace featurelab;

TEST_CASE("row norms and cosines survive rows below float's squared range, and zero rows give 0") {
  Mat W(3, 4);
  W << 3e-24f, 4e-24f, 0, 0,   // norm 5e-24: its float squared norm (2.5e-47) is 0, below every denormal
      1, 0, 0, 0,              //
      0, 0, 0, 0;              // a zero row
  const VecD norms = row_norms(W);
  CHECK(norms(0) == Approx(5e-24).epsilon(1e-6));
  CHECK(norms(1) == 1);
  CHECK(norms(2) == 0);
  Mat v(1, 4);
  v << 1, 0, 0, 0;
  const MatD cos = row_cosines(W, v);
  CHECK(cos(0, 0) == Approx(0.6).epsilon(1e-6));  // float's norm().cwiseMax(1e-30) read 3e-24/1e-30 = 3e6 here
  CHECK(cos(1, 0) == 1);
  CHECK(cos(2, 0) == 0);
  if constexpr (std::is_same_v<Scalar, float>) {
    const float naive = W.row(0).dot(v.row(0)) / std::max(W.row(0).norm(), Scalar(1e-30));
    CHECK(std::abs(naive) > 1.5f);  // why the helper exists: the float form is no cosine
  }
}

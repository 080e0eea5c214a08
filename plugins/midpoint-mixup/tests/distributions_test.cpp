// simple-multiview (Def. 3.1) and multiview-patches (Def. 4.1): structure of every sample.
#include "mm_harness.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace featurelab;
using mm_test::pack;

namespace {
Dataset draw(const std::string& name, const mm_test::Overrides& params, Index n, std::shared_ptr<Distribution>* keep = nullptr) {
  auto d = pack().make<Distribution>(name, params, {}, 3);
  Dataset out;
  Rng rng(5);
  d->sample(n, Split::Train, rng, out);
  if (keep) *keep = std::move(d);
  return out;
}
}  // namespace

TEST_CASE("simple-multiview: x = beta v1 + (1 - beta) v2 with orthonormal features") {
  for (const std::string kind : {"basis", "random"}) {
    std::shared_ptr<Distribution> d;
    const Dataset data = draw("simple-multiview", {{"classes", std::int64_t(4)}, {"dim", std::int64_t(12)}, {"features", kind}},
                              500, &d);
    const Mat views = d->features().at("views");
    REQUIRE(views.rows() == 8);
    CHECK((views * views.transpose()).isApprox(Mat::Identity(8, 8), 1e-5));
    const Mat coords = data.X * views.transpose();  // n×2k coordinates in the feature basis
    for (Index i = 0; i < data.size(); ++i) {
      const Index y = data.y(i);
      const double beta = data.meta.at("beta")(i);
      CHECK(beta >= 0.1);
      CHECK(beta <= 0.9);
      CHECK(coords(i, 2 * y) == Approx(beta).margin(1e-5));
      CHECK(coords(i, 2 * y + 1) == Approx(1 - beta).margin(1e-5));
      CHECK(coords.row(i).sum() == Approx(1).margin(1e-5));  // nothing outside the class's two features
    }
  }
  CHECK_THROWS_WITH(pack().make<Distribution>("simple-multiview", {{"classes", std::int64_t(5)}, {"dim", std::int64_t(6)}}, {}),
                    Catch::Contains("must be >= 2k = 10"));
}

TEST_CASE("multiview-patches: signal pairs, mirrored coefficients, feature noise") {
  const mm_test::Overrides params{{"classes", std::int64_t(5)}, {"patches", std::int64_t(8)}, {"signal_pairs", std::int64_t(2)},
                                  {"noise_classes", std::int64_t(2)}, {"delta1", 0.2}, {"delta2", 1.0}};
  std::shared_ptr<Distribution> d;
  const Dataset data = draw("multiview-patches", params, 300, &d);
  const Index P = 8, dim = 10, k = 5;
  REQUIRE(data.X.cols() == P * dim);
  REQUIRE(d->spec().shape.dims == std::vector<Index>{P, dim});
  const double d3 = 0.25 * std::pow(5.0, -1.5), d4 = 0.5 * std::pow(5.0, -1.5);
  for (Index i = 0; i < data.size(); ++i) {
    const Index y = data.y(i);
    for (Index c = 0; c < 2; ++c) {  // fixed positions: pair c at patches 2c, 2c+1
      const auto first = data.X.row(i).segment(2 * c * dim, dim);
      const auto second = data.X.row(i).segment((2 * c + 1) * dim, dim);
      const double beta = first(2 * y);
      CHECK(beta >= 0.2 - 1e-6);
      CHECK(beta <= 0.8 + 1e-6);
      CHECK(beta + second(2 * y + 1) == Approx(1.0));  // δ2
      CHECK(first.sum() == Approx(beta));
    }
    const auto noise = data.X.row(i).segment(4 * dim, dim);
    int classes_present = 0;
    for (Index s = 0; s < k; ++s) {
      const bool present = noise(2 * s) != 0 || noise(2 * s + 1) != 0;
      if (!present) continue;
      ++classes_present;
      CHECK(s != y);
      CHECK(noise(2 * s) >= d3 - 1e-7);
      CHECK(noise(2 * s) <= d4 + 1e-7);
    }
    CHECK(classes_present == 2);  // Q
    for (Index p = 5; p < P; ++p) CHECK(data.X.row(i).segment(p * dim, dim) == noise);  // same_noise
  }
  CHECK_THROWS_WITH(pack().make<Distribution>("multiview-patches", {{"patches", std::int64_t(3)}, {"signal_pairs", std::int64_t(2)}}, {}),
                    Catch::Contains("raise patches"));
}

// Chapter 2's real-data half: the quadratic teacher of Algorithm 3 (its objective's gradient against finite
// differences, the class-balance regularizer at work on injected inputs) and the gaussian-injection transform
// (the mixture's parts, moments and labels; the splits keep their sizes).
#include "../src/ch2-emergence-from-inputs/quadratic_teacher.hpp"

#include <featurelab/testing.hpp>
#include <featurelab/transform.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace featurelab;
using featurelab::feature_emergence_pack::QuadraticTeacher;
using featurelab::feature_emergence_pack::TeacherParameters;
using featurelab::feature_emergence_pack::TeacherSettings;

namespace {

testing::Harness& real_data_pack() { return testing::pack(FEATURE_EMERGENCE_PLUGIN); }

// K classes in d dimensions: class c is N(3 e_c, I) (well separated), labels in order.
void separated_classes(Index n, Index d, int K, Rng& rng, Mat& X, IVec& y) {
  X.resize(n, d);
  y.resize(n);
  rng.fill_normal(X);
  for (Index i = 0; i < n; ++i) {
    y(i) = static_cast<std::int32_t>(i % K);
    X(i, y(i)) += 3;
  }
}

// The first 300 rows as the training split, the last 100 as the test split, each with a "digit" column (the class).
void digit_splits(const Mat& X, const IVec& y, Dataset& train, Dataset& test) {
  train.X = X.topRows(300);
  train.y = y.head(300);
  test.X = X.bottomRows(100);
  test.y = y.tail(100);
  for (Dataset* d : {&train, &test}) {
    d->classes = 3;
    d->meta["digit"] = d->y.cast<double>();
  }
}

}  // namespace

TEST_CASE("quadratic teacher: the gradient of CE + μ(R1 + λR2) matches finite differences") {
  Rng rng(3);
  Mat X, U(15, 6);
  IVec y;
  separated_classes(20, 6, 3, rng, X, y);
  rng.fill_normal(U);
  QuadraticTeacher teacher(6, 3, 4, rng);
  teacher.parameters().b.setConstant(Scalar(0.3));
  TeacherSettings settings;
  settings.balance = 0.7;
  settings.confidence = 1.3;
  TeacherParameters grad;
  teacher.objective(X, y, U, settings, &grad);
  // Directional derivatives along random unit directions of (W, A, b): float rounding makes single
  // coordinates noisy, a direction is not.
  TeacherParameters& theta = teacher.parameters();
  const TeacherParameters start = theta;
  for (int trial = 0; trial < 6; ++trial) {
    TeacherParameters dir{Mat(start.W.rows(), start.W.cols()), Mat(start.A.rows(), start.A.cols()),
                          RowVec(start.b.size())};
    rng.fill_normal(dir.W);
    rng.fill_normal(dir.A);
    for (Index j = 0; j < dir.b.size(); ++j) dir.b(j) = static_cast<Scalar>(rng.normal());
    const double norm = std::sqrt(static_cast<double>(dir.W.squaredNorm() + dir.A.squaredNorm() + dir.b.squaredNorm()));
    const double analytic = static_cast<double>((grad.W.array() * dir.W.array()).sum() + (grad.A.array() * dir.A.array()).sum() +
                                                (grad.b.array() * dir.b.array()).sum()) / norm;
    const auto value_at = [&](double h) {
      const auto s = static_cast<Scalar>(h / norm);
      theta.W = start.W + s * dir.W;
      theta.A = start.A + s * dir.A;
      theta.b = start.b + s * dir.b;
      return teacher.objective(X, y, U, settings, nullptr);
    };
    const double h = 1e-2;
    const double numeric = (value_at(h) - value_at(-h)) / (2 * h);
    theta = start;
    CHECK(numeric == Approx(analytic).epsilon(0.02).margin(1e-3));
  }
}

TEST_CASE("quadratic teacher: fits separable classes, and R balances its classes on the injected inputs") {
  Rng rng(5);
  Mat X, U(300, 8);
  IVec y;
  separated_classes(300, 8, 3, rng, X, y);
  // Injected inputs far along class 0's direction: a teacher fitted on L alone calls almost all of them 0.
  rng.fill_normal(U);
  U.col(0).array() += 6;
  TeacherSettings settings;
  settings.width = 6;
  settings.steps = 300;
  settings.balance = 0;
  Rng init(9);
  QuadraticTeacher alone(8, 3, settings.width, init);
  const auto fit_alone = alone.train(X, y, U, settings);
  settings.balance = 1;
  Rng same(9);
  QuadraticTeacher balanced(8, 3, settings.width, same);
  const auto fit = balanced.train(X, y, U, settings);
  CHECK(fit_alone.train_accuracy >= 0.95);
  CHECK(fit.train_accuracy >= 0.9);
  CHECK(fit_alone.injected_balance < 0.3);  // the rarest class gets under 30 % of its uniform share
  CHECK(fit.injected_balance > 0.6);
  const IVec labels = balanced.labels(U);
  for (int c = 0; c < 3; ++c) CHECK((labels.array() == c).count() >= 50);  // every class is used on U
}

TEST_CASE("gaussian-injection: the mixture's parts, sizes, moments and the teacher's labels") {
  DataSpec spec;
  spec.dim = 8;
  spec.classes = 3;
  spec.meta = {"digit"};
  auto transform = real_data_pack().make<Transform>("gaussian-injection", {{"fraction", 0.5}, {"test_fraction", 0.2},
                                                                 {"teacher_width", std::int64_t(6)}}, spec);
  const auto out_spec = transform->output_spec(spec);
  CHECK(out_spec.meta == std::vector<std::string>{"digit", "part"});
  Rng rng(11);
  Dataset train, test;
  Mat X;
  IVec y;
  separated_classes(400, 8, 3, rng, X, y);
  digit_splits(X, y, train, test);
  const RowVec mean = train.X.colwise().mean();
  Rng apply_rng(13);
  transform->apply(train, test, apply_rng);
  REQUIRE(train.size() == 300);  // the splits keep their sizes: α = 0.5 of the training digits replaced
  REQUIRE(test.size() == 100);   // and a fifth of the test digits
  const VecD& part = train.meta.at("part");
  CHECK(part.sum() == 150);
  // The injected rows: no digit, the digits' per-coordinate mean; the digits keep their column and mostly
  // their label (the teacher fits them).
  RowVec injected_mean = RowVec::Zero(8);
  Index agree = 0;
  for (Index i = 0; i < train.size(); ++i) {
    if (part(i) == 1) {
      CHECK(train.meta.at("digit")(i) == -1);
      injected_mean += train.X.row(i) / Scalar(150);
    } else {
      agree += static_cast<double>(train.y(i)) == train.meta.at("digit")(i);
    }
  }
  CHECK(agree >= 140);
  CHECK((injected_mean - mean).cwiseAbs().maxCoeff() < 0.35);
  CHECK(test.meta.at("part").sum() == 20);
  // The same seed gives the same mixture.
  Dataset train2, test2;
  digit_splits(X, y, train2, test2);
  Rng again(13);
  transform->apply(train2, test2, again);
  CHECK(train2.X == train.X);
  CHECK(train2.y == train.y);
  CHECK_THROWS_WITH(real_data_pack().make<Transform>("gaussian-injection", {}, testing::spec(8, 0)), Catch::Contains("classes"));
}

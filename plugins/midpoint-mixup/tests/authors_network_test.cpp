// The authors' released network as options of patch-two-layer (their strip layout, their unclipped
// PolyReLU, their Xavier std), and the patch-sources probe that tells a network reading the noise from
// one reading its own features.
#include "mm_harness.hpp"

#include "../src/unclipped_smoothed_relu.hpp"

#include <featurelab/gradient_check.hpp>
#include <featurelab/probe.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace featurelab;
using mm_test::pack;
using mm_test::patch_spec;
using mm_test::std_pack;

namespace {
double metric(const Measurements& m, const std::string& name) {
  for (const auto& [n, v] : m.scalars()) {
    if (n == name) return v;
  }
  FAIL("no metric " << name);
  return 0;
}
}  // namespace

// The authors' released code (utils/data_utils.py reshapes 9 patches of 9×9 in C order into a 27×27 image;
// models/two_layer_cnn.py reads it with a 9×9 convolution of stride 9): convolution block (I, J) holds, in its
// rows ρ = 0…8, row (ρ mod 3)·3 + J of data patch 3I + ⌊ρ/3⌋. Checked here from that description, not from
// the image arithmetic the model uses.
TEST_CASE("patch-two-layer's strips layout is the authors' convolution of their C-order image") {
  const Index P = 9, d = 81, m = 3;
  const int k = 3;
  auto model = pack().make<Model>("patch-two-layer", {{"neurons", std::int64_t(m)}, {"patch_layout", std::string("strips")},
                                                      {"alpha", 2.0}}, patch_spec(P, d, k));
  Rng rng(3);
  model->init(rng);
  Mat X(4, P * d);
  rng.fill_normal(X);
  Mat Z;
  model->hook("filters.pre", X, Z);  // (n·P)×(k·m), block-major
  const auto W = std::as_const(*model).block("W");
  for (Index i = 0; i < X.rows(); ++i) {
    for (Index I = 0; I < 3; ++I) {
      for (Index J = 0; J < 3; ++J) {
        for (Index f = 0; f < k * m; ++f) {
          double z = 0;
          for (Index rho = 0; rho < 9; ++rho) {
            const Index data_patch = 3 * I + rho / 3, data_row = (rho % 3) * 3 + J;
            for (Index c = 0; c < 9; ++c) z += double(W(f, rho * 9 + c)) * X(i, data_patch * d + data_row * 9 + c);
          }
          CHECK(Z(i * P + I * 3 + J, f) == Approx(z).epsilon(1e-4).margin(1e-5));
        }
      }
    }
  }
  // Whole patches (the paper's network) give another answer on the same weights.
  auto whole = pack().make<Model>("patch-two-layer", {{"neurons", std::int64_t(m)}, {"alpha", 2.0}}, patch_spec(P, d, k));
  whole->parameters() = model->parameters();
  Mat Zw;
  whole->hook("filters.pre", X, Zw);
  CHECK((Zw - Z).norm() > 1);
}

TEST_CASE("the unclipped smoothed ReLU is u^a/(a rho^(a-1)) below rho, negative u too") {
  const midpoint_mixup_pack::UnclippedSmoothedRelu phi(2, Scalar(1) / 3);
  CHECK(phi(Scalar(-0.5)).value == Approx(0.375));   // (-0.5)²/(2/3): the authors' x²/(2ρ) > 0
  CHECK(phi(Scalar(-0.5)).slope == Approx(-1.5));    // u/ρ
  CHECK(phi(Scalar(0.2)).value == Approx(0.06));
  CHECK(phi(Scalar(2)).value == Approx(2 - 1.0 / 6));  // u − (1 − 1/α)ρ
  CHECK(phi(Scalar(2)).slope == 1);
  const midpoint_mixup_pack::UnclippedSmoothedRelu cubic(3, Scalar(0.5));
  CHECK(cubic(Scalar(-0.4)).value == Approx(-0.064 / 0.75));  // odd α: negative, as x**3 is
  CHECK_THROWS_WITH(pack().make<Model>("patch-two-layer", {{"activation", std::string("smoothed-relu-unclipped")},
                                                           {"alpha", 2.5}}, patch_spec(4, 6, 3)),
                    Catch::Contains("integral alpha"));
}

TEST_CASE("the authors' network options: gradients, input gradients and the Xavier std") {
  const DataSpec s = patch_spec(4, 9, 3);  // q = 2 patches a side of h = 3
  auto model = pack().make<Model>("patch-two-layer", {{"neurons", std::int64_t(2)}, {"patch_layout", std::string("strips")},
                                                      {"activation", std::string("smoothed-relu-unclipped")},
                                                      {"alpha", 2.0}, {"init_std", 0.5}}, s);
  auto loss = std_pack().make<Loss>("cross-entropy", {}, s);
  Rng rng(11);
  model->init(rng);
  Dataset data;
  data.X.resize(6, 36);
  rng.fill_normal(data.X);
  data.y.resize(6);
  data.y << 0, 1, 2, 1, 0, 2;
  data.classes = 3;
  const auto r = check_gradient(*model, *loss, Batch::of(data));
  INFO(r.report);
  CHECK(r.ok);
  const auto ri = check_input_gradient(*model, Batch::of(data));
  INFO(ri.report);
  CHECK(ri.ok);

  auto xavier = pack().make<Model>("patch-two-layer", {{"neurons", std::int64_t(3)}, {"init", std::string("xavier-conv")}},
                                   patch_spec(9, 81, 3));
  xavier->init(rng);
  const auto W = std::as_const(*xavier).block("W");
  const double std_w = std::sqrt(W.squaredNorm() / double(W.size()));
  CHECK(std_w == Approx(std::sqrt(2.0 / (81 + 729))).epsilon(0.1));  // 0.0497
  CHECK_THROWS_WITH(pack().make<Model>("patch-two-layer", {{"init", std::string("xavier-conv")}, {"init_std", 0.1}},
                                       patch_spec(9, 81, 3)),
                    Catch::Contains("drop init_std"));
  CHECK_THROWS_WITH(pack().make<Model>("patch-two-layer", {{"patch_layout", std::string("strips")}}, patch_spec(3, 81, 3)),
                    Catch::Contains("square number of patches"));
}

// Hand-set linear networks (identity activation, one filter per class) on the authors' generator at
// k = 3 with every other class in the noise: w_y = −(v_{y,1} + v_{y,2}) reads the label off the noise
// (the class whose features are missing), w_y = v_{y,1} + v_{y,2} off the signal, w_y = v_{y,1} − v_{y,2}/10
// off one feature only (the small negative part: a point carrying v_{y,2} alone is then wrong, not a tie).
TEST_CASE("patch-sources tells a network reading the noise from one reading its own features") {
  auto data = pack().make<Distribution>("multiview-patches", {{"classes", std::int64_t(3)}, {"patches", std::int64_t(9)},
                                                              {"patch_dim", std::int64_t(81)}, {"noise_classes", std::int64_t(2)},
                                                              {"same_noise", false}, {"delta1", 0.25}, {"delta2", 0.75},
                                                              {"delta3", 0.4811}, {"delta4", 1.4434},
                                                              {"test_views", std::string("one")}}, {}, 5);
  Rng rng(5);
  Dataset test;
  data->sample(300, Split::Test, rng, test);
  const FeatureSet features = data->features();
  const Mat& views = features.at("views");
  const DataSpec spec = data->spec();
  auto loss = std_pack().make<Loss>("cross-entropy", {}, spec);
  auto probe = pack().make<Probe>("patch-sources", {}, spec);
  auto measure = [&](const std::string& reader) {
    auto model = pack().make<Model>("patch-two-layer", {{"neurons", std::int64_t(1)}, {"activation", std::string("identity")}},
                                    spec, 1, &features);
    auto W = model->block("W");
    for (Index y = 0; y < 3; ++y) {
      if (reader == "noise") W.row(y) = -(views.row(2 * y) + views.row(2 * y + 1));
      if (reader == "signal") W.row(y) = views.row(2 * y) + views.row(2 * y + 1);
      if (reader == "one feature") W.row(y) = views.row(2 * y) - Scalar(0.1) * views.row(2 * y + 1);
    }
    std::vector<NamedAttack> attacks;
    Measurements out;
    probe->measure(ProbeInput{*model, *loss, test, test, features, attacks, 1}, out);
    return out;
  };
  const Measurements noise = measure("noise");
  CHECK(metric(noise, "noise_only") == 1);
  CHECK(metric(noise, "signal_only") == 0);
  CHECK(metric(noise, "signal_none") == 1);
  const Measurements signal = measure("signal");
  CHECK(metric(signal, "noise_only") == 0);
  CHECK(metric(signal, "signal_only") == 1);
  CHECK(metric(signal, "signal_both") == 1);
  const Measurements one = measure("one feature");
  CHECK(metric(one, "signal_one") == 1);
  CHECK(metric(one, "signal_both") == 0);
  REQUIRE(one.tables().size() == 1);
  CHECK(one.tables()[0].second.values(0, 1) == 1);  // class 0 on its v_{0,1} points
  CHECK(one.tables()[0].second.values(0, 2) == 0);  // and on its v_{0,2} points: nothing there to read
}

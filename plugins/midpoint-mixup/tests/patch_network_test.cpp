// Chidambaram et al. (2023)'s patch CNN (Def. 4.2, Eq. 4.1) composed of std's layers,
//   patches { linear (k·m, no bias, block W), smoothed-relu (α, ρ), linear (k, per-class ones, fixed) },
// equals this pack's hand-written `patch-two-layer` on the same filters: outputs, the filters' gradient and the
// input gradient within 1e-5 relative in float, with the plain and the smoothed ReLU, and on data whose noise
// patches are stored once with their counts (multiview-patches' compressed form: the patch counts weigh φ).
#include "mm_harness.hpp"

#include <featurelab/model_comparison.hpp>

#include <catch2/catch.hpp>

using namespace featurelab;
using featurelab::testing::layer;
using featurelab::testing::layers;
using mm_test::pack;
using mm_test::std_pack;

namespace {

DataSpec patch_data(Index P, Index d, int k, std::vector<double> counts) {
  DataSpec s;
  s.dim = P * d;
  s.classes = k;
  s.shape.dims = {P, d};
  s.shape.patch_counts = std::move(counts);
  return s;
}

// The patch CNN as layers: k·m filters named W as patch-two-layer's, the fixed per-class sum as the readout.
std::map<std::string, Value> patch_network(std::int64_t classes, std::int64_t filters, const std::string& activation,
                                           double alpha, double rho) {
  ComponentSpec filter_layer = layer("linear", {{"out", filters}, {"bias", false}});
  filter_layer.block_names = {"W"};
  return {{"layer",
           layers({layer("patches",
                         {{"layers",
                           layers({filter_layer,
                                   layer("activation", {{"activation", activation},
                                                        {"smooth_alpha", alpha},
                                                        {"smooth_rho", rho}}),
                                   layer("linear", {{"out", classes},
                                                    {"bias", false},
                                                    {"init", std::string("per-class")},
                                                    {"init_std", 1.0},
                                                    {"trainable", false}})},
                                  "model.layer.0.layers")}})})}};
}

}  // namespace

TEST_CASE("patch-two-layer composed of std layers (patches, linear, smoothed-relu) equals the hand-written one") {
  const Index P = 5, d = 12, m = 3, n = 40;
  const int k = 3;
  for (const std::string activation : {"smoothed-relu", "relu"}) {
    for (const bool counted : {false, true}) {
      INFO(activation << (counted ? ", patch counts 1, 1, 4, 4, 2" : ", every patch once"));
      const DataSpec spec = patch_data(P, d, k, counted ? std::vector<double>{1, 1, 4, 4, 2} : std::vector<double>{});
      auto hand = pack().make<Model>(
          "patch-two-layer",
          {{"neurons", std::int64_t(m)}, {"activation", activation}, {"alpha", 4.0}, {"rho", 0.3}}, spec);
      auto composed = std_pack().make<Model>("network", patch_network(k, k * m, activation, 4.0, 0.3), spec);
      Rng rng(2);
      hand->init(rng);
      composed->init(rng);  // the fixed per-class sum; W comes from the hand-written model
      Mat X(n, P * d);
      rng.fill_normal(X);
      const testing::ModelComparison c = testing::compare_models(*hand, *composed, X);
      CHECK(c.failures(1e-5, 0.1) == "");
    }
  }
}

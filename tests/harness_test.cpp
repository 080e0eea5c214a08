// testing::Harness with several packs (a pack's model with std's losses), and objects that keep
// their library loaded after the harness is gone (they hold it, as the core's objects do).
#include "test_paths.hpp"

#include <featurelab/testing.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

using namespace featurelab;
namespace fs = std::filesystem;

using featurelab::test::kFixtures;
using featurelab::test::kPlugins;

TEST_CASE("a harness loads several packs, resolves names across them and asks to qualify a shared one") {
  testing::Harness h({(kFixtures / "fixture/libfixture.so").string(), (kPlugins / "libstd.so").string()});
  DataSpec spec;
  spec.dim = 1;
  spec.classes = 2;
  CHECK(h.make<Model>("crash-model", {}, spec));   // the fixture pack's
  CHECK(h.make<Model>("two-layer", {}, spec));     // std's
  CHECK(h.make<Loss>("std:logistic", {}, spec));
  CHECK(h.make<Loss>("fixture:logistic", {}, spec));
  CHECK_THROWS_WITH(h.make<Loss>("logistic", {}, spec),
                    Catch::Contains("loss 'logistic' is in packs fixture and std; write \"std:logistic\""));
  CHECK_THROWS_WITH(h.make<Model>("two-layr", {}, spec),
                    Catch::Contains("no model 'two-layr' in the loaded packs: fixture (") && Catch::Contains("std ("));
}

TEST_CASE("objects made by a harness keep their library loaded after the harness is gone") {
  std::shared_ptr<Model> model;
  std::shared_ptr<Loss> loss;
  {
    testing::Harness h;
    h.load((kPlugins / "libstd.so").string());
    DataSpec spec;
    spec.dim = 1;
    spec.classes = 2;
    model = h.make<Model>("linear", {}, spec);
    loss = h.make<Loss>("logistic", {}, spec);
  }
  Dataset data;
  data.X = Mat::Ones(2, 1);
  data.y = IVec::Ones(2);
  data.classes = 2;
  // A zero-initialised linear model outputs 0, and the logistic loss of 0 is log 2: both calls
  // (and the destructors at the end of the test) run the plugin's code after the harness is gone.
  CHECK(loss->evaluate(*model, Batch::of(data)) == Approx(std::log(2.0)).epsilon(1e-5));
}

TEST_CASE("a harness refuses a file that is not a pack") {
  CHECK_THROWS_WITH(testing::Harness((kFixtures / "no-entry/libfixture-no-entry.so").string()),
                    Catch::Contains("no featurelab_pack entry point"));
  CHECK_THROWS_WITH(testing::Harness((kFixtures / "wrong-abi/libfixture-wrong-abi.so").string()),
                    Catch::Contains("ABI " + std::to_string(FEATURELAB_ABI_VERSION + 1)));
}

TEST_CASE("a harness lists the packs it loaded and what each registers") {
  testing::Harness h({(kFixtures / "fixture/libfixture.so").string(), (kPlugins / "libstd.so").string()});
  CHECK(h.packs() == std::vector<std::string>{"fixture", "std"});
  const auto& components = h.components("std");
  CHECK(std::any_of(components.begin(), components.end(),
                    [](const ComponentInfo& c) { return c.kind == Kind::Model && c.name == "two-layer"; }));
  CHECK_THROWS_WITH(h.components("nope"), "no pack 'nope' is loaded");
}

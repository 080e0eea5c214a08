// Loading deliberately broken plugins: each refusal is precise and pinned here.
#include "loader/manifest.hpp"
#include "loader/pack_loader.hpp"
#include "registry/catalog.hpp"

#include "temp_dir.hpp"
#include "test_paths.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <sys/stat.h>

using namespace featurelab;
namespace fs = std::filesystem;

using featurelab::test::kFixtures;
using featurelab::test::kPlugins;

TEST_CASE("a pack with another ABI is refused before any call") {
  const auto r = load_pack(kFixtures / "wrong-abi/libfixture-wrong-abi.so");
  CHECK(r.failure == LoadFailure::WrongAbi);
  CHECK_THAT(r.message, Catch::Contains("libfixture-wrong-abi.so: ABI " + std::to_string(FEATURELAB_ABI_VERSION + 1) +
                                        ", core expects " + std::to_string(FEATURELAB_ABI_VERSION)));
}

// Fingerprints: fingerprint_test.cpp, with plugins really compiled with other flags.

TEST_CASE("a component built against another version of its kind's interface is refused, naming both ids") {
  const auto r = load_pack(kFixtures / "old-interface/libfixture-old-interface.so");
  CHECK(r.failure == LoadFailure::InterfaceMismatch);
  CHECK(r.message == (kFixtures / "old-interface/libfixture-old-interface.so").string() +
                         ": pack 'old-interface': model 'old-model' implements featurelab.model/0, this featurelab "
                         "calls featurelab.model/1; rebuild the plugin against this featurelab's SDK");
}

TEST_CASE("the manifest records each component's interface id, and discovery refuses another one") {
  const PackManifest fixture = read_manifest(kFixtures / "fixture/libfixture.featurelab.json");
  for (const auto& c : fixture.components) CHECK(c.interface_id == std::string("featurelab.") + to_string(c.kind) + "/1");
  // A manifest saying model/0 (as the old-interface pack's would): not used, and said why, without loading it.
  test::TempDir dir;
  fs::copy_file(kFixtures / "old-interface/libfixture-old-interface.so", dir.path() / "libfixture-old-interface.so");
  PackManifest m;
  m.library_file = dir.path() / "libfixture-old-interface.so";
  m.library_size = fs::file_size(m.library_file);
  m.abi = FEATURELAB_ABI_VERSION;
  m.fingerprint = build_fingerprint();
  m.name = "old-interface";
  m.version = "1.0";
  m.components.push_back({Kind::Model, "old-model", "", Schema{}, "featurelab.model/0", "", {}});
  write_manifest(m, manifest_path_for(m.library_file));
  Catalog catalog;
  catalog.discover({dir.path()});
  CHECK(catalog.packs().empty());
  REQUIRE(catalog.problems().size() == 1);
  CHECK_THAT(catalog.problems()[0], Catch::Contains("pack 'old-interface' is not used: model 'old-model' implements "
                                                    "featurelab.model/0, this featurelab calls featurelab.model/1"));
}

TEST_CASE("a library without the entry point is refused") {
  const auto r = load_pack(kFixtures / "no-entry/libfixture-no-entry.so");
  CHECK(r.failure == LoadFailure::MissingEntryPoint);
  CHECK_THAT(r.message, Catch::Contains("missing entry point 'featurelab_pack'"));
}

TEST_CASE("a file that is not a shared library is refused") {
  test::TempDir dir;
  const auto garbage = dir.write("libgarbage.so", "this is not an ELF file\n");
  const auto r = load_pack(garbage);
  CHECK(r.failure == LoadFailure::NotSharedLibrary);
  CHECK_THAT(r.message, Catch::Contains("libgarbage.so: not a loadable shared library"));
  CHECK(load_pack(dir.path() / "absent.so").failure == LoadFailure::NotFound);
}

TEST_CASE("a plugin writable by other users is refused") {
  test::TempDir dir;
  fs::copy_file(kFixtures / "fixture/libfixture.so", dir.path() / "libfixture.so");
  ::chmod((dir.path() / "libfixture.so").c_str(), 0666);
  const auto r = load_pack(dir.path() / "libfixture.so");
  CHECK(r.failure == LoadFailure::UnsafePermissions);
  CHECK_THAT(r.message, Catch::Contains("chmod go-w"));
}

TEST_CASE("a plugin in a directory writable by other users is refused, unless the directory is sticky") {
  test::TempDir dir;
  const fs::path loose = dir.path() / "loose";
  fs::create_directory(loose);
  fs::copy_file(kFixtures / "fixture/libfixture.so", loose / "libfixture.so");
  ::chmod(loose.c_str(), 0777);
  const auto r = load_pack(loose / "libfixture.so");
  CHECK(r.failure == LoadFailure::UnsafePermissions);
  CHECK_THAT(r.message, Catch::Contains("loose is writable by other users (mode 777)") &&
                            Catch::Contains("chmod go-w"));
  ::chmod(loose.c_str(), 01777);  // like /tmp: others cannot replace our file
  CHECK(load_pack(loose / "libfixture.so"));
}

TEST_CASE("the plugin search path never includes the current directory implicitly") {
  ::setenv("FEATURELAB_PLUGIN_PATH", ":/opt/a::/opt/b:", 1);
  const auto dirs = Catalog::search_path({"", "/opt/c:"});
  ::unsetenv("FEATURELAB_PLUGIN_PATH");
  REQUIRE(dirs.size() >= 3);
  CHECK(dirs[0] == "/opt/c");
  CHECK(dirs[1] == "/opt/a");
  CHECK(dirs[2] == "/opt/b");
  for (const auto& d : dirs) {
    CHECK_FALSE(d.empty());
    CHECK(d != ".");
    CHECK(d.is_absolute());
  }
}

TEST_CASE("the std pack loads and matches its manifest") {
  const auto r = load_pack(kPlugins / "libstd.so");
  REQUIRE(r);
  CHECK(r.pack->name == "std");
  const PackManifest m = read_manifest(manifest_path_for(kPlugins / "libstd.so"));
  CHECK(m.components.size() == r.pack->components.size());
  CHECK(m.fingerprint == build_fingerprint());
}

TEST_CASE("a throwing factory fails its component with the plugin file and name") {
  Catalog catalog;
  catalog.discover({kFixtures / "fixture", kPlugins});
  const ComponentRef ref = catalog.find(Kind::Model, "throwing-model");
  Context ctx;
  ctx.path = "model";
  CHECK_THROWS_WITH(catalog.make<Model>(ref, Params(), ctx),
                    Catch::Contains("libfixture.so: model 'throwing-model'") &&
                        Catch::Contains("fixture model refuses to be built"));
}

TEST_CASE("duplicate names across packs need qualification, lookups suggest") {
  Catalog catalog;
  catalog.discover({kFixtures / "fixture", kPlugins});
  CHECK_THROWS_WITH(catalog.find(Kind::Loss, "logistic"),
                    Catch::Contains("provided by several packs") && Catch::Contains("fixture:logistic") &&
                        Catch::Contains("std:logistic"));
  CHECK(catalog.find(Kind::Loss, "std:logistic").pack->manifest.name == "std");
  CHECK(catalog.find(Kind::Loss, "fixture:logistic").pack->manifest.name == "fixture");
  CHECK_THROWS_WITH(catalog.find(Kind::Model, "two-layr"),
                    Catch::Contains("no model 'two-layr'; did you mean 'two-layer' (pack std"));
  CHECK_THROWS_WITH(catalog.find(Kind::Model, "logistic"), Catch::Contains("'logistic' is a loss"));
}

TEST_CASE("a component found nowhere is reported with the directories searched, in order, and how to add one") {
  Catalog catalog;
  catalog.discover({kFixtures / "fixture", kPlugins, "/nonexistent/featurelab-plugins"});
  CHECK_THROWS_WITH(catalog.find(Kind::Model, "my-model"),
                    Catch::EndsWith("; searched, in order: " + (kFixtures / "fixture").string() + ", " +
                                    kPlugins.string() + ", /nonexistent/featurelab-plugins (missing) (add a directory in "
                                    "front with --plugin-path DIR, or FEATURELAB_PLUGIN_PATH=DIR1:DIR2)"));
  Catalog empty;
  empty.discover({});
  CHECK_THROWS_WITH(empty.find(Kind::Model, "my-model"), Catch::Contains("no plugin directory was searched (add"));
}

TEST_CASE("stale and missing manifests are reported, not trusted") {
  test::TempDir dir;
  fs::copy_file(kFixtures / "fixture/libfixture.so", dir.path() / "libfixture.so");
  Catalog bare;
  bare.discover({dir.path()});
  REQUIRE(bare.problems().size() == 1);
  CHECK_THAT(bare.problems()[0], Catch::Contains("no manifest") && Catch::Contains("featurelab plugins manifest"));
  PackManifest m = read_manifest(kFixtures / "fixture/libfixture.featurelab.json");
  m.library_size += 1;
  write_manifest(m, dir.path() / "libfixture.featurelab.json");
  Catalog stale;
  stale.discover({dir.path()});
  REQUIRE(stale.problems().size() == 1);
  CHECK_THAT(stale.problems()[0], Catch::Contains("stale manifest"));
  CHECK(stale.packs().empty());
}

TEST_CASE("the same pack twice on the path: the first wins, the second is reported") {
  Catalog plugins_only;
  plugins_only.discover({kPlugins});
  Catalog catalog;
  catalog.discover({kPlugins, kFixtures / "fixture", kPlugins / "."});  // the same directory twice is read once
  CHECK(catalog.packs().size() == plugins_only.packs().size() + 1);
  CHECK(catalog.problems().empty());
  test::TempDir dir;
  fs::copy_file(kFixtures / "fixture/libfixture.so", dir.path() / "libfixture.so");
  fs::copy_file(kFixtures / "fixture/libfixture.featurelab.json", dir.path() / "libfixture.featurelab.json");
  Catalog twice;
  twice.discover({kFixtures / "fixture", dir.path()});
  CHECK(twice.packs().size() == 1);
  REQUIRE(twice.problems().size() == 1);
  CHECK_THAT(twice.problems()[0], Catch::Contains("pack 'fixture' found twice"));
}

TEST_CASE("objects keep their library loaded after the catalog is gone") {
  std::shared_ptr<Loss> loss;
  std::shared_ptr<Model> model;
  {
    Catalog catalog;
    catalog.discover({kPlugins});
    Context ctx;
    ctx.data.dim = 1;
    ctx.data.classes = 2;
    const auto loss_ref = catalog.find(Kind::Loss, "logistic");
    loss = catalog.make<Loss>(loss_ref, Params::defaults(loss_ref.component->schema), ctx);
    const auto model_ref = catalog.find(Kind::Model, "linear");
    model = catalog.make<Model>(model_ref, Params::defaults(model_ref.component->schema), ctx);
  }
  // Calling into the plugin after the catalog (and its pack record) is gone must still work:
  // the objects hold the library.
  Dataset data;
  data.X = Mat::Ones(2, 1);
  data.y = IVec::Ones(2);
  data.classes = 2;
  // A zero-initialised linear model outputs 0, and the logistic loss of 0 is log 2.
  CHECK(loss->evaluate(*model, Batch::of(data)) == Approx(std::log(2.0)).epsilon(1e-5));
}

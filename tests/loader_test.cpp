// Loading deliberately broken plugins: each refusal is precise and pinned here.
#include "kernel/io/sha256.hpp"
#include <featurelab/core/manifest.hpp>
#include "kernel/loader/interface_ids.hpp"
#include "kernel/loader/pack_loader.hpp"
#include <featurelab/core/catalog.hpp>

#include "temp_dir.hpp"
#include "test_paths.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>

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
                         "calls featurelab.model/3; rebuild the plugin against this featurelab's SDK");
}

TEST_CASE("the manifest records each component's interface id, and discovery refuses another one") {
  const PackManifest fixture = read_manifest(kFixtures / "fixture/libfixture.featurelab.json");
  for (const auto& c : fixture.components) CHECK(c.interface_id == core_interface_id(c.kind));
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
                                                    "featurelab.model/0, this featurelab calls featurelab.model/3"));
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
  CHECK(m.fingerprint == r.pack->fingerprint);
  CHECK(fingerprint_difference(m.fingerprint, build_fingerprint()).empty());
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

// Trust: the file and every directory above it, symlinks resolved, like ssh's StrictModes.

namespace {

// A copy of the fixture pack (library and manifest) under `dir`, as `name`.so, readable by all.
fs::path copy_fixture(const fs::path& dir, const std::string& name = "libfixture") {
  fs::create_directories(dir);
  const fs::path library = dir / (name + ".so");
  fs::copy_file(kFixtures / "fixture/libfixture.so", library);
  fs::copy_file(kFixtures / "fixture/libfixture.featurelab.json", dir / (name + ".featurelab.json"));
  ::chmod(library.c_str(), 0644);
  return library;
}

// Another build of the same library: one byte of its compiler note (.comment, never loaded)
// changed, so it has the size, the fingerprint and the behaviour of the original, and other bytes.
std::string other_build_of(const fs::path& library) {
  std::ifstream in(library, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto note = bytes.find("GCC: (");
  REQUIRE(note != std::string::npos);
  bytes[note + 6] = bytes[note + 6] == 'X' ? 'Y' : 'X';
  return bytes;
}

void replace_atomically(const fs::path& file, const std::string& bytes) {
  const fs::path next = file.string() + ".next";
  std::ofstream(next, std::ios::binary) << bytes;
  ::chmod(next.c_str(), 0644);
  fs::rename(next, file);
}

}  // namespace

TEST_CASE("a symlink is resolved and the directories that really hold its target are checked") {
  test::TempDir dir;
  const fs::path target = copy_fixture(dir.path() / "shared");
  ::chmod((dir.path() / "shared").c_str(), 0777);  // anyone could put another library in its place
  fs::create_directory(dir.path() / "links");
  fs::create_symlink(target, dir.path() / "links/libfixture.so");
  const auto r = load_pack(dir.path() / "links/libfixture.so");
  CHECK(r.failure == LoadFailure::UnsafePermissions);
  CHECK_THAT(r.message, Catch::Contains("links/libfixture.so resolves to " + target.string()) &&
                            Catch::Contains("shared is writable by other users (mode 777)") &&
                            Catch::Contains("chmod go-w " + (dir.path() / "shared").string()));
  ::chmod((dir.path() / "shared").c_str(), 0755);
  CHECK(load_pack(dir.path() / "links/libfixture.so"));
}

TEST_CASE("every directory up to the root is checked, a sticky one only passes with our entry below it") {
  test::TempDir dir;
  const fs::path grandparent = dir.path() / "open";
  const fs::path library = copy_fixture(grandparent / "plugins");
  ::chmod(grandparent.c_str(), 0777);  // anyone could rename plugins/ away and put theirs in its place
  const auto r = load_pack(library);
  CHECK(r.failure == LoadFailure::UnsafePermissions);
  CHECK_THAT(r.message, Catch::Contains("the directory " + grandparent.string() +
                                        " is writable by other users (mode 777)") &&
                            Catch::Contains("chmod go-w " + grandparent.string()));
  ::chmod(grandparent.c_str(), 0775);  // group-writable is refused as well
  CHECK_THAT(load_pack(library).message, Catch::Contains("(mode 775)"));
  ::chmod(grandparent.c_str(), 01777);  // like /tmp: plugins/ is ours, so others cannot replace it
  CHECK(load_pack(library));
}

TEST_CASE("a plugin or a directory owned by another user is refused, also in a sticky directory") {
  if (::geteuid() != 0) {
    WARN("not root: cannot give a file to another user; ownership refusals are not checked here");
    return;
  }
  test::TempDir dir;
  const fs::path shared = dir.path() / "shared";
  const fs::path library = copy_fixture(shared, "aaa-other");
  ::chmod(shared.c_str(), 01777);
  REQUIRE(::chown(library.c_str(), 65534, 65534) == 0);  // nobody's file, mode 644
  const auto r = load_pack(library);
  CHECK(r.failure == LoadFailure::UnsafePermissions);
  CHECK_THAT(r.message, Catch::Contains(library.string() + " belongs to ") && Catch::Contains("uid 65534") &&
                            Catch::Contains("move the plugin to a directory of your own"));
  // Discovery: never listed, never shadowing the user's own pack of the same name, never loaded.
  copy_fixture(shared);
  Catalog catalog;
  catalog.discover({shared});
  REQUIRE(catalog.packs().size() == 1);
  CHECK(catalog.packs()[0]->manifest.library_file == shared / "libfixture.so");
  CHECK(catalog.find(Kind::Model, "crash-model").pack->manifest.library_file == shared / "libfixture.so");
  REQUIRE(catalog.refused(library) != nullptr);
  CHECK(catalog.refused(library)->loaded == nullptr);
  CHECK(catalog.problems() == std::vector<std::string>{r.message});
  // A directory of another user's, even when its mode is safe.
  REQUIRE(::chown(library.c_str(), 0, 0) == 0);
  REQUIRE(::chown(shared.c_str(), 65534, 65534) == 0);
  ::chmod(shared.c_str(), 0755);
  CHECK_THAT(load_pack(library).message, Catch::Contains("the directory " + shared.string() + " belongs to "));
}

TEST_CASE("an untrusted library is not used and does not shadow a trusted pack of the same name") {
  test::TempDir dir;
  const fs::path loose = copy_fixture(dir.path(), "aaa-loose");  // sorts first
  ::chmod(loose.c_str(), 0666);
  copy_fixture(dir.path());
  Catalog catalog;
  catalog.discover({dir.path()});
  REQUIRE(catalog.packs().size() == 1);
  CHECK(catalog.packs()[0]->manifest.library_file == dir.path() / "libfixture.so");
  REQUIRE(catalog.problems().size() == 1);  // no "found twice": the refused one claims no name
  CHECK_THAT(catalog.problems()[0], Catch::StartsWith(loose.string() + ": refused: ") &&
                                        Catch::Contains("chmod go-w " + loose.string()));
  REQUIRE(catalog.refused(loose) != nullptr);
  CHECK(catalog.refused(loose)->refusal_kind == LoadFailure::UnsafePermissions);
}

TEST_CASE("a component only a refused library provides is refused when pinned, not reported unknown") {
  test::TempDir dir;
  const fs::path loose = copy_fixture(dir.path());
  ::chmod(loose.c_str(), 0666);
  Catalog catalog;
  catalog.discover({dir.path(), kPlugins});
  const ComponentRef ref = catalog.find(Kind::Model, "crash-model");
  REQUIRE(ref.pack != nullptr);
  CHECK(ref.pack->manifest.library_file == loose);
  CHECK_THROWS_AS(Catalog::pin(*ref.pack), PluginError);
  CHECK_THROWS_WITH(Catalog::pin(*ref.pack), Catch::StartsWith(loose.string() + ": refused: ") &&
                                                 Catch::Contains("chmod go-w"));
  CHECK_THROWS_WITH(catalog.load(*ref.pack), Catch::Contains("chmod go-w"));
  CHECK(catalog.find(Kind::Loss, "logistic").pack->manifest.name == "std");  // no longer ambiguous
}

TEST_CASE("two libraries of one directory declaring the same pack are both refused, and keep the name") {
  test::TempDir dir;
  const fs::path first = copy_fixture(dir.path() / "a", "libfixture");
  const fs::path second = copy_fixture(dir.path() / "a", "libfixture-copy");
  const fs::path later = copy_fixture(dir.path() / "b");
  Catalog catalog;
  catalog.discover({dir.path() / "a", dir.path() / "b"});
  CHECK(catalog.packs().empty());
  REQUIRE(catalog.problems().size() == 2);
  CHECK(catalog.problems()[0] == "pack 'fixture' is declared by 2 libraries in " + (dir.path() / "a").string() +
                                     " (libfixture-copy.so, libfixture.so); which one would run depends on their "
                                     "file names, so none is used: remove the ones you do not want, or give each "
                                     "its own pack name");
  CHECK(catalog.problems()[1] == "pack 'fixture' found twice: " + second.string() +
                                     " (earlier on the search path, refused) and " + later.string() + " (ignored)");
  for (const auto& library : {first, second}) {
    REQUIRE(catalog.refused(library) != nullptr);
    CHECK(catalog.refused(library)->refusal_kind == LoadFailure::AmbiguousPack);
  }
  const ComponentRef ref = catalog.find(Kind::Model, "crash-model");
  CHECK_THROWS_WITH(Catalog::pin(*ref.pack), Catch::Contains("declared by 2 libraries"));
  // Behind a directory that declares the pack once, both are only shadowed.
  Catalog shadowed;
  shadowed.discover({dir.path() / "b", dir.path() / "a"});
  REQUIRE(shadowed.packs().size() == 1);
  CHECK(shadowed.packs()[0]->manifest.library_file == later);
  REQUIRE(shadowed.problems().size() == 2);
  for (const auto& problem : shadowed.problems()) CHECK_THAT(problem, Catch::Contains("(used, earlier on the search path)"));
}

// One build per run.

TEST_CASE("a pack's identity is the SHA-256 of its file, and loading records it") {
  test::TempDir dir;
  CHECK(sha256_of_file(dir.write("abc", "abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const auto r = load_pack(kFixtures / "fixture/libfixture.so");
  REQUIRE(r);
  CHECK(r.pack->sha256 == sha256_of_file(kFixtures / "fixture/libfixture.so"));
  CHECK(r.sha256 == r.pack->sha256);
}

TEST_CASE("libraries loaded one after another are each what was asked for") {
  // Each is loaded through /proc/self/fd/N. The intruder stays mapped after it is unloaded (a unique
  // symbol), so were its descriptor closed, the next library opened under the same number would be
  // taken for it by the dynamic loader.
  for (int round = 0; round < 2; ++round) {
    CHECK(load_pack(kFixtures / "intruder/libfixture-intruder.so").pack->version == "6.6.6");
    CHECK(load_pack(kFixtures / "fixture/libfixture.so").pack->version == "1.0");
    CHECK(load_pack(kPlugins / "libstd.so").pack->name == "std");
  }
}

TEST_CASE("a pinned pack whose library was replaced is refused at load, naming both hashes") {
  test::TempDir dir;
  const fs::path library = copy_fixture(dir.path());
  const std::string original = sha256_of_file(library);
  Catalog catalog;
  catalog.discover({dir.path()});
  const ComponentRef ref = catalog.find(Kind::Model, "crash-model");
  CHECK(Catalog::pin(*ref.pack) == original);
  replace_atomically(library, other_build_of(library));  // a rebuild: same size and fingerprint
  const std::string rebuilt = sha256_of_file(library);
  REQUIRE(rebuilt != original);
  CHECK_THROWS_WITH(catalog.load(*ref.pack),
                    Catch::StartsWith("plugin 'fixture' (" + library.string() + ") changed during the run (sha256 " +
                                      original.substr(0, 16) + "... at the start, " + rebuilt.substr(0, 16) +
                                      "... now)") &&
                        Catch::Contains("start a new run with another --out"));
  // The rebuilt library itself is fine: a catalog that never pinned the first build loads it.
  Catalog fresh;
  fresh.discover({dir.path()});
  CHECK(fresh.load(*fresh.find(Kind::Model, "crash-model").pack)->sha256 == rebuilt);
  // Pinned to a recorded build (featurelab job): the same refusal.
  Catalog recorded;
  recorded.discover({dir.path()});
  const ComponentRef again = recorded.find(Kind::Model, "crash-model");
  Catalog::pin_to(*again.pack, original);
  CHECK_THROWS_WITH(recorded.load(*again.pack), Catch::Contains("changed during the run"));
}

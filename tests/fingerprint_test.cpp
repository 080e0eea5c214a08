// Plugins really compiled with other flags than the core (tests/CMakeLists.txt builds
// tests/plugins/tiny_pack.cpp with the other scalar type and with other SIMD flags): the loader and
// testing::Harness refuse each, naming the differing field. Up to ABI 6 both loaded as ok: the
// fingerprint function was an inline symbol, and the plugin's call to it bound to the core's copy.
#include "kernel/loader/pack_loader.hpp"
#include "test_paths.hpp"

#include <featurelab/testing.hpp>

#include <catch2/catch.hpp>

#include <string>

using namespace featurelab;
namespace fs = std::filesystem;

using featurelab::test::kFixtures;

TEST_CASE("a plugin compiled with the other scalar type is refused, naming the scalar field") {
  const fs::path file = kFixtures / "other-scalar/libfixture-other-scalar.so";
  const std::string field = std::string("scalar: plugin ") + FEATURELAB_FIXTURE_OTHER_SCALAR + ", core " + kScalarName;
  const auto r = load_pack(file);
  CHECK(r.failure == LoadFailure::FingerprintMismatch);
  CHECK_THAT(r.message, Catch::Contains("libfixture-other-scalar.so: pack 'tiny': build fingerprint differs (") &&
                            Catch::Contains(field));
  CHECK_THROWS_WITH(testing::Harness(file.string()),
                    Catch::Contains("build fingerprint differs (") && Catch::Contains(field));
}

TEST_CASE("a plugin for the other scalar type whose code takes matrices cannot load, and the loader says why") {
  // The dynamic linker fails first (an undefined symbol: Rng::fill_normal for the other scalar type); the message
  // demangles it and names the scalar type, not only "_ZN10featurelab3Rng11fill_normal…".
  const fs::path file = kFixtures / "other-scalar-linked/libfixture-other-scalar-linked.so";
  const std::string other = FEATURELAB_FIXTURE_OTHER_SCALAR;
  const auto r = load_pack(file);
  CHECK(r.failure == LoadFailure::NotSharedLibrary);
  CHECK_THAT(r.message, Catch::Contains("featurelab::Rng::fill_normal(") &&
                            Catch::Contains("takes matrices of " + other + ": the plugin was compiled for " + other +
                                            " as the scalar type, and this featurelab uses " + kScalarName));
}

TEST_CASE("a plugin built without optimisation loads, and its fingerprint says so for the warning") {
  const fs::path file = kFixtures / "unoptimized/libfixture-unoptimized.so";
  const auto r = load_pack(file);
  REQUIRE(r.failure == LoadFailure::None);
  CHECK(fingerprint_field(r.pack->fingerprint, "optimized") == "no");
  CHECK_THAT(unoptimized_plugin_warning(r.pack->fingerprint, file.string()),
             Catch::Contains("libfixture-unoptimized.so: built without optimisation") &&
                 Catch::Contains("tens of times slower"));
  // Optimised, or unoptimised on purpose: no warning; and the field is never a reason to refuse.
  CHECK(unoptimized_plugin_warning("compiler=gcc-12;optimized=yes", "x").empty());
  CHECK(unoptimized_plugin_warning("compiler=gcc-12;optimized=no-on-purpose", "x").empty());
  CHECK(fingerprint_difference(r.pack->fingerprint, build_fingerprint()).empty());
}

TEST_CASE("a plugin built for the other matrix product kernel is refused, naming the blas field") {
  const fs::path file = kFixtures / "other-blas/libfixture-other-blas.so";
  const auto r = load_pack(file);
  CHECK(r.failure == LoadFailure::FingerprintMismatch);
  CHECK_THAT(r.message, Catch::Contains(std::string("blas: plugin ") + FEATURELAB_FIXTURE_OTHER_BLAS + ", core " +
                                        FEATURELAB_BLAS_NAME));
}

TEST_CASE("a plugin compiled against other SDK headers is refused, naming the headers field") {
  const fs::path file = kFixtures / "other-headers/libfixture-other-headers.so";
  const auto r = load_pack(file);
  CHECK(r.failure == LoadFailure::FingerprintMismatch);
  CHECK_THAT(r.message, Catch::Contains(std::string("headers: plugin 0123456789abcdef, core ") +
                                        FEATURELAB_SDK_HEADERS_SHA256));
  CHECK_THROWS_WITH(testing::Harness(file.string()), Catch::Contains("headers: plugin 0123456789abcdef"));
}

TEST_CASE("a plugin compiled with other SIMD flags is refused, naming the simd field") {
  const std::string flags = FEATURELAB_FIXTURE_OTHER_SIMD;
  if (flags.empty()) {
    WARN("skipped: no SIMD flags differing from the core's are known for this compiler and target "
         "(tests/CMakeLists.txt builds fixture-other-simd only where there are)");
    return;
  }
  INFO("the fixture was compiled with " << flags);
  const fs::path file = kFixtures / "other-simd/libfixture-other-simd.so";
  const auto r = load_pack(file);
  CHECK(r.failure == LoadFailure::FingerprintMismatch);
  CHECK_THAT(r.message, Catch::Contains("build fingerprint differs (") && Catch::Contains("simd: plugin "));
  CHECK_THROWS_WITH(testing::Harness(file.string()), Catch::Contains("simd: plugin "));
}

TEST_CASE("a plugin built with the core's flags loads, in the loader and in the harness") {
  const fs::path file = kFixtures / "fixture/libfixture.so";
  const auto r = load_pack(file);
  REQUIRE(r);
  // Equal but for "optimized", which is reported, not compared (this test's own code may be built at -O0).
  CHECK(fingerprint_difference(r.pack->fingerprint, build_fingerprint()).empty());
  CHECK_NOTHROW(testing::Harness(file.string()));
}

TEST_CASE("the fingerprint difference names every differing field, and fields only one side has") {
  CHECK(fingerprint_difference("a=1;simd=avx2;scalar=float", "a=1;simd=avx2;scalar=float").empty());
  CHECK(fingerprint_difference("a=1;simd=avx2;scalar=double", "a=1;simd=avx512f,avx2;scalar=float") ==
        "scalar: plugin double, core float; simd: plugin avx2, core avx512f,avx2");
  CHECK(fingerprint_difference("a=1;extra=x", "a=1;sdk=0.1.0") == "sdk: plugin (none), core 0.1.0; extra: plugin x, core (none)");
}

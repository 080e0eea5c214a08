// Plugins really compiled with other flags than the core (tests/CMakeLists.txt builds
// tests/plugins/tiny_pack.cpp with the other scalar type and with other SIMD flags): the loader and
// testing::Harness refuse each, naming the differing field. Up to ABI 6 both loaded as ok: the
// fingerprint function was an inline symbol, and the plugin's call to it bound to the core's copy.
#include "loader/pack_loader.hpp"
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
  CHECK(r.pack->fingerprint == build_fingerprint());
  CHECK_NOTHROW(testing::Harness(file.string()));
}

TEST_CASE("the fingerprint difference names every differing field, and fields only one side has") {
  CHECK(fingerprint_difference("a=1;simd=avx2;scalar=float", "a=1;simd=avx2;scalar=float").empty());
  CHECK(fingerprint_difference("a=1;simd=avx2;scalar=double", "a=1;simd=avx512f,avx2;scalar=float") ==
        "scalar: plugin double, core float; simd: plugin avx2, core avx512f,avx2");
  CHECK(fingerprint_difference("a=1;extra=x", "a=1;sdk=0.1.0") == "sdk: plugin (none), core 0.1.0; extra: plugin x, core (none)");
}

// rotated-mnist and colored-mnist on digit files written by the test: the round-robin domains, the
// leave-one-domain-out splits, the rotation (quarter and half turns move a pixel exactly), the colouring, and the
// refusals.
#include "std_harness.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

using namespace featurelab;
using std_test::harness;

namespace {

// Ten digit files of `per_digit` images each; image of digit d lights pixel d of its first row only.
std::filesystem::path write_digits(const std::string& tag, int per_digit) {
  const auto dir = std::filesystem::temp_directory_path() / ("fl-" + tag + "-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "src" / "digits");
  for (int d = 0; d < 10; ++d) {
    std::ofstream f(dir / "src" / "digits" / (std::to_string(d) + ".json"));
    f << "{\"data\": [";
    for (int i = 0; i < per_digit * 784; ++i) f << (i ? "," : "") << (i % 784 == d ? 1.0 : 0.0);
    f << "]}";
  }
  return dir;
}

}  // namespace

TEST_CASE("rotated-mnist deals the digits to its domains and holds one out") {
  const auto dir = write_digits("rmnist", 6);  // 60 digits, 20 per domain
  auto rmnist = harness().make<Distribution>(
      "rotated-mnist", {{"dir", dir.string()}, {"angles", std::vector<double>{0, 90, 180}}, {"test_domain", std::int64_t(1)}},
      {});
  CHECK(rmnist->available(Split::Train) == 32);  // 2 × (20 − 4)
  CHECK(rmnist->available(Split::Test) == 8);    // 2 × ⌊0.2 · 20⌋
  const auto features = rmnist->features();
  REQUIRE(features.at("ood_inputs").rows() == 20);
  REQUIRE(features.at("ood_labels").cols() == 20);
  for (Index i = 0; i < 20; ++i) {  // the held-out domain turns every digit's pixel (d, 0) a quarter: to (0, 27 − d)
    const auto digit = static_cast<Index>(features.at("ood_labels")(0, i));
    CHECK(features.at("ood_inputs")(i, (27 - digit) * 28) == Approx(1).margin(1e-5));
  }
  Dataset train, val;
  Rng rng(3);
  rmnist->sample(32, Split::Train, rng, train);
  rmnist->sample(8, Split::Test, rng, val);
  for (const Dataset* d : {&train, &val}) {
    CHECK(d->classes == 10);
    for (Index i = 0; i < d->size(); ++i) {
      const auto domain = d->meta.at("domain")(i), digit = d->meta.at("digit")(i);
      CHECK(domain != 1);
      CHECK(d->y(i) == static_cast<std::int32_t>(digit));
      const Index at = domain == 0 ? static_cast<Index>(digit) : 27 * 28 + 27 - static_cast<Index>(digit);
      CHECK(d->X(i, at) == Approx(1).margin(1e-5));
    }
  }
  CHECK_THROWS_WITH(rmnist->sample(9, Split::Test, rng, val), Catch::Contains("has 8 samples"));
  CHECK_THROWS_WITH(harness().make<Distribution>("rotated-mnist", {{"dir", dir.string()}, {"test_domain", std::int64_t(6)}}, {}),
                    Catch::Contains("test_domain = 6 but there are 6 domains"));
  CHECK_THROWS_WITH(harness().make<Distribution>("rotated-mnist", {{"dir", dir.string()}, {"angles", std::vector<double>{0}}}, {}),
                    Catch::Contains("at least two"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("colored-mnist colours each digit by its label, flipped with its domain's probability") {
  const auto dir = write_digits("cmnist", 4);  // 40 digits, 20 per domain
  auto cmnist = harness().make<Distribution>(
      "colored-mnist", {{"dir", dir.string()}, {"color_flip", std::vector<double>{0.0, 1.0}}, {"label_noise", 0.0},
                        {"test_domain", std::int64_t(1)}}, {});
  CHECK(cmnist->available(Split::Train) == 16);
  CHECK(cmnist->available(Split::Test) == 4);
  Dataset train;
  Rng rng(5);
  cmnist->sample(16, Split::Train, rng, train);
  CHECK(train.classes == 2);
  CHECK(train.dim() == 2 * 784);
  for (Index i = 0; i < train.size(); ++i) {
    const auto digit = static_cast<Index>(train.meta.at("digit")(i));
    CHECK(train.y(i) == (digit < 5 ? 1 : 0));
    const Index channel = train.y(i);  // domain 0 never flips the colour
    CHECK(train.X(i, channel * 784 + digit) == 1);
    CHECK(train.X.row(i).sum() == 1);
  }
  const auto features = cmnist->features();  // domain 1, held out, always flips it
  for (Index i = 0; i < features.at("ood_inputs").rows(); ++i) {
    const Index label = static_cast<Index>(features.at("ood_labels")(0, i));
    CHECK(features.at("ood_inputs").block(i, (1 - label) * 784, 1, 784).sum() == 1);
  }
  std::filesystem::remove_all(dir);
}

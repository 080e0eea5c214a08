// The [[assert]] expression grammar: valid forms, arithmetic, and clear errors.
#include "engine/assertion.hpp"

#include <featurelab/error.hpp>

#include <catch2/catch.hpp>

#include <map>

using featurelab::Assertion;

namespace {
double lookup(const std::map<std::string, double>& values, const std::string& name) {
  return values.at(name);
}
}  // namespace

TEST_CASE("comparisons of metrics and numbers") {
  const std::map<std::string, double> v{{"accuracy.test", 0.97}, {"neuron-feature-cosine.max", 0.5},
                                        {"weight-norms.W.fro", 2.0}};
  auto eval = [&](const std::string& text) {
    return Assertion::parse(text).evaluate([&](const std::string& m) { return lookup(v, m); }).holds;
  };
  CHECK(eval("accuracy.test >= 0.95"));
  CHECK_FALSE(eval("accuracy.test < 0.95"));
  CHECK(eval("neuron-feature-cosine.max == 0.5"));
  CHECK(eval("weight-norms.W.fro <= 2 * 0.05 * 30"));
  CHECK(eval("accuracy.test - neuron-feature-cosine.max > 0.4"));
  CHECK(eval("-(accuracy.test) < 0"));
  CHECK(eval("(1 + 2) * 3 == 9"));
  CHECK(Assertion::parse("a.b + c.d >= 1").metrics() == std::vector<std::string>{"a.b", "c.d"});
}

TEST_CASE("NaN never satisfies a prediction") {
  auto a = Assertion::parse("x.y >= 0");
  CHECK_FALSE(a.evaluate([](const std::string&) { return std::nan(""); }).holds);
}

TEST_CASE("malformed expressions are refused with the column") {
  CHECK_THROWS_WITH(Assertion::parse("accuracy.test"), Catch::Contains("expected a comparison"));
  CHECK_THROWS_WITH(Assertion::parse("accuracy.test >= "), Catch::Contains("ends too early"));
  CHECK_THROWS_WITH(Assertion::parse("accuracy.test >= 0.9 0.1"), Catch::Contains("column 22"));
  CHECK_THROWS_WITH(Assertion::parse("(a.b >= 1"), Catch::Contains("expected ')'"));
  CHECK_THROWS_AS(Assertion::parse("a.b >= $"), featurelab::Error);
}

TEST_CASE("selectors name the sweep point a metric is read from") {
  const auto a = Assertion::parse(
      "feature-learned.both[augment.0.use=midpoint-mixup] > feature-learned.both[augment.0.use=none, model.width=10] + 0.3");
  REQUIRE(a.selectors().size() == 2);
  CHECK(a.selectors()[0] == featurelab::Selector{{"augment.0.use", "midpoint-mixup"}});
  CHECK(a.selectors()[1] == featurelab::Selector{{"augment.0.use", "none"}, {"model.width", "10"}});
  const auto outcome = a.evaluate([](const std::string&, const featurelab::Selector& s) {
    return s.front().second == "midpoint-mixup" ? 0.9 : 0.2;
  });
  CHECK(outcome.holds);
  CHECK(outcome.lhs == Approx(0.9));
  CHECK(outcome.rhs == Approx(0.5));
  CHECK_THROWS_WITH(Assertion::parse("a.b[x] > 1"), Catch::Contains("key=value"));
  CHECK_THROWS_WITH(Assertion::parse("a.b[x=1 > 1"), Catch::Contains("expected ']'"));
  CHECK_THROWS_WITH(Assertion::parse("a.b[x=] > 1"), Catch::Contains("expected a value"));
}

// Parameter schemas: constraint checks and the wording of expectations.
#include <featurelab/params.hpp>

#include <catch2/catch.hpp>

using namespace featurelab;

TEST_CASE("numeric bounds are checked and described") {
  Schema s;
  auto& lr = s.real("lr", 0.01, "learning rate").above(0);
  CHECK(lr.expectation() == "a number > 0");
  CHECK_FALSE(lr.check(Value(0.5)).has_value());
  CHECK(lr.check(Value(-1.0)) == std::optional<std::string>("got -1.0"));
  CHECK(lr.check(Value(0.0)).has_value());
  CHECK_FALSE(lr.check(Value(std::int64_t(2))).has_value());  // an integer is a fine real
  auto& width = s.integer("width", 10, "hidden units").range(1, 100);
  CHECK(width.expectation() == "an integer in [1, 100]");
  CHECK(width.check(Value(std::int64_t(0))).has_value());
  CHECK(width.check(Value(2.5)) == std::optional<std::string>("got 2.5 (real)"));
}

TEST_CASE("choices and lists") {
  Schema s;
  auto& act = s.choice("activation", "relu", {"relu", "leaky-relu"}, "activation");
  CHECK(act.expectation() == "one of relu, leaky-relu");
  CHECK(act.check(Value(std::string("tanh"))) == std::optional<std::string>("got \"tanh\""));
  auto& radii = s.reals("radii", {0.1}, "radii").min(0).non_empty();
  CHECK_FALSE(radii.check(Value(std::vector<double>{0.5, 1.0})).has_value());
  CHECK(radii.check(Value(std::vector<double>{0.5, -1.0})).has_value());
  CHECK(radii.check(Value(std::vector<double>{})).has_value());
  CHECK_FALSE(radii.check(Value(std::vector<std::int64_t>{1, 2})).has_value());
}

TEST_CASE("params give typed access and defaults") {
  Schema s;
  s.real("lr", 0.01, "learning rate");
  s.boolean("bias", true, "bias");
  Params p = Params::defaults(s);
  CHECK(p.real("lr") == Approx(0.01));
  CHECK(p.boolean("bias"));
  CHECK_THROWS_WITH(p.integer("lr"), Catch::Contains("read as int"));
  CHECK_THROWS_WITH(p.real("missing"), Catch::Contains("not in this component's schema"));
  CHECK(format_value(Value(std::vector<std::string>{"a", "b"})) == "[\"a\", \"b\"]");
}

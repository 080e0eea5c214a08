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

TEST_CASE("an automatic key takes \"auto\" or a number and is read as an optional") {
  Schema s;
  s.integer("width", Automatic{"the theorem's 2^{2k-2}(p-1)"}, "m: neurons").min(1);
  s.real("scale", 0.5, "std").min(0).or_auto("1/sqrt(D)");
  s.real("lr", 0.1, "learning rate").above(0);
  // Looked up once the schema is complete: each declaration may move the specs declared before it.
  const ParamSpec& width = *s.find("width");
  const ParamSpec& scale = *s.find("scale");
  const ParamSpec& lr = *s.find("lr");
  CHECK(width.expectation() == "an integer >= 1 or \"auto\"");
  CHECK(width.default_text() == "auto (the theorem's 2^{2k-2}(p-1))");
  CHECK(scale.default_text() == "0.5");
  CHECK_FALSE(width.check(Value(std::string(kAuto))).has_value());
  CHECK_FALSE(width.check(Value(std::int64_t(7))).has_value());
  CHECK(width.check(Value(std::int64_t(0))).has_value());  // 0 is a number like any other, and below 1
  CHECK(width.check(Value(std::string("automatic"))).has_value());
  CHECK_FALSE(scale.check(Value(std::string(kAuto))).has_value());
  CHECK(lr.check(Value(std::string(kAuto))).has_value());  // only automatic keys take "auto"

  Params p = Params::defaults(s);
  CHECK(is_auto(p.at("width")));
  CHECK_FALSE(p.integer_or_auto("width").has_value());
  CHECK(p.real_or_auto("scale") == std::optional<double>(0.5));
  CHECK(p.real_or_auto("lr") == std::optional<double>(0.1));  // a plain key reads as its value
  CHECK_THROWS_WITH(p.integer("width"), Catch::Contains("is \"auto\"") && Catch::Contains("integer_or_auto"));
  p.set("width", std::int64_t(12));
  CHECK(p.integer_or_auto("width") == std::optional<std::int64_t>(12));
  p.set("scale", std::string(kAuto));
  CHECK_FALSE(p.real_or_auto("scale").has_value());
}

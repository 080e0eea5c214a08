// The [[assert]] expression grammar: valid forms, arithmetic, and clear errors.
#include "results/assertion.hpp"

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

// The terminal's FAIL line carries the evidence: the values compared, and at which seed and point.
#include "results/run_assertions.hpp"

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <sstream>

namespace {

featurelab::JobRecord finished_job(std::size_t point, const std::string& width, std::int64_t seed, double accuracy) {
  featurelab::JobRecord job;
  job.spec.point = point;
  job.spec.seed = seed;
  if (!width.empty()) job.spec.assignments = {{"model.width", width}};
  job.status = featurelab::JobState::ok;
  job.history["accuracy.test"] = {{100, accuracy}};
  return job;
}

std::string fail_lines(const featurelab::AssertSpec& spec, const std::vector<featurelab::JobRecord>& jobs) {
  std::ostringstream text;
  auto log = std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::ostream_sink_st>(text));
  log->set_pattern("%v");
  featurelab::evaluate_assertions({spec}, jobs, log.get());
  // The verdict lines only (not the closing count of warnings).
  std::istringstream lines(text.str());
  std::string verdicts;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("assert ", 0) == 0) verdicts += line + "\n";
  }
  return verdicts;
}

featurelab::JobRecord job_with(std::size_t point, const std::string& width, std::int64_t seed,
                               std::vector<std::pair<featurelab::Index, double>> accuracy) {
  featurelab::JobRecord job = finished_job(point, width, seed, 0);
  job.history["accuracy.test"] = std::move(accuracy);
  return job;
}

nlohmann::json verdict(const featurelab::AssertSpec& spec, const std::vector<featurelab::JobRecord>& jobs) {
  return featurelab::evaluate_assertions({spec}, jobs, nullptr).first.at(0);
}

}  // namespace

TEST_CASE("a failed assertion's line names the values compared, with the seed and the sweep point") {
  featurelab::AssertSpec spec;
  spec.expect = "accuracy.test >= 0.9";
  CHECK_THAT(fail_lines(spec, {finished_job(0, "", 0, 0.95), finished_job(0, "", 1, 0.8125)}),
             Catch::Contains("assert FAIL  accuracy.test >= 0.9  (final, every-seed): seed 1: 0.8125 >= 0.9 is false\n"));
  CHECK_THAT(fail_lines(spec, {finished_job(0, "10", 0, 0.5), finished_job(1, "40", 0, 0.95)}),
             Catch::Contains("assert FAIL  accuracy.test >= 0.9  (final, every-seed): [model.width=10] seed 0: 0.5 >= 0.9 is "
                             "false\n"));
  spec.over = "mean";
  CHECK_THAT(fail_lines(spec, {finished_job(0, "", 0, 0.9), finished_job(0, "", 1, 0.8)}),
             Catch::Contains("assert FAIL  accuracy.test >= 0.9  (final, mean): mean over 2 seed(s): 0.85 >= 0.9 is false\n"));
  spec.over = "any";  // one good seed at each point: it holds, and nothing is listed
  const std::string any = fail_lines(spec, {finished_job(0, "", 0, 0.95), finished_job(0, "", 1, 0.5)});
  CHECK_THAT(any, Catch::Contains("assert PASS  accuracy.test >= 0.9  (final, any)"));
  CHECK_THAT(any, !Catch::Contains("FAIL") && !Catch::Contains("is false"));
}

TEST_CASE("where = \"key=a|b\" selects the points where the key has either value") {
  featurelab::AssertSpec spec;
  spec.expect = "accuracy.test >= 0.9";
  const std::vector<featurelab::JobRecord> jobs = {finished_job(0, "10", 0, 0.5), finished_job(1, "20", 0, 0.95),
                                                   finished_job(2, "40", 0, 0.97)};
  spec.points = "model.width=20|40";
  auto v = verdict(spec, jobs);
  CHECK(v.at("holds") == true);
  CHECK(v.at("checks").size() == 2);
  spec.points = "model.width=10|40";
  CHECK(verdict(spec, jobs).at("holds") == false);  // width 10 is one of the points now
  CHECK(featurelab::where_matches("a|b", "b"));
  CHECK_FALSE(featurelab::where_matches("a|b", "a|b"));
  CHECK_FALSE(featurelab::where_matches("ab", "a"));
}

TEST_CASE("over = \"80%\" needs that share of each point's seeds, rounded up, and says how many held") {
  featurelab::AssertSpec spec;
  spec.expect = "accuracy.test >= 0.9";
  spec.over = "80%";
  std::vector<featurelab::JobRecord> four_of_five;
  for (std::int64_t seed = 0; seed < 5; ++seed) four_of_five.push_back(finished_job(0, "", seed, seed == 0 ? 0.77 : 0.97));
  CHECK(verdict(spec, four_of_five).at("holds") == true);
  four_of_five[1] = finished_job(0, "", 1, 0.5);  // three of five
  CHECK(verdict(spec, four_of_five).at("holds") == false);
  CHECK_THAT(fail_lines(spec, four_of_five),
             Catch::Contains("(final, 80%): 3 of 5 seed(s) hold it, 80% needs 4; seed 0: 0.77 >= 0.9 is false"));
  // One seed: 80 % of one is that seed.
  CHECK(verdict(spec, {finished_job(0, "", 0, 0.5)}).at("holds") == false);
  CHECK(featurelab::seed_share("80%") == Approx(0.8));
  CHECK(featurelab::seed_share("100%") == Approx(1.0));
  for (const char* bad : {"0%", "101%", "%", "80", "abc%", ".5%", "-5%", "80 %"}) {
    INFO(bad);
    CHECK_FALSE(featurelab::seed_share(bad));
  }
}

TEST_CASE("an assertion that already holds at step 0 is reported as holding at initialisation") {
  featurelab::AssertSpec spec;
  spec.expect = "accuracy.test >= 0.9";
  // Learned: 0.5 at step 0, 0.95 at the end; no warning about initialisation.
  const auto learned = verdict(spec, {job_with(0, "", 0, {{0, 0.5}, {100, 0.95}})});
  CHECK(learned.at("holds") == true);
  CHECK(learned.at("at_init").at("holds") == false);
  CHECK(learned.at("warnings") == nlohmann::json::array({"no control"}));
  // Already true untrained: it passes, but says so.
  const auto trivial = verdict(spec, {job_with(0, "", 0, {{0, 0.93}, {100, 0.95}})});
  CHECK(trivial.at("holds") == true);
  CHECK(trivial.at("at_init").at("holds") == true);
  CHECK(trivial.at("warnings") == nlohmann::json::array({"holds at initialisation", "no control"}));
  CHECK_THAT(fail_lines(spec, {job_with(0, "", 0, {{0, 0.93}, {100, 0.95}})}),
             Catch::Contains("but it holds at initialisation too"));
  // Declared to be about the initial state (an invariant): no warning.
  spec.holds_at_init = true;
  const auto declared = verdict(spec, {job_with(0, "", 0, {{0, 0.93}, {100, 0.95}})});
  CHECK(declared.at("at_init").at("declared") == true);
  CHECK(declared.at("warnings") == nlohmann::json::array({"no control"}));
  // An expression whose every reference names its step has no initial state to compare with.
  featurelab::AssertSpec trend;
  trend.expect = "accuracy.test[step=100] > accuracy.test[step=0]";
  CHECK_FALSE(verdict(trend, {job_with(0, "", 0, {{0, 0.5}, {100, 0.95}})}).contains("at_init"));
}

TEST_CASE("an assertion with a control passes only if the expectation fails at the control") {
  featurelab::AssertSpec spec;
  spec.expect = "accuracy.test >= 0.9";
  spec.points = "model.width=40";
  spec.controls = {"model.width=10"};
  // The wide net learns, the narrow control does not: it holds, and the control is recorded.
  const auto separated = verdict(spec, {finished_job(0, "10", 0, 0.6), finished_job(1, "40", 0, 0.95)});
  CHECK(separated.at("holds") == true);
  CHECK(separated.at("controls").at(0).at("fails_there") == true);
  CHECK(separated.at("warnings").empty());
  // Both learn: the claim does not separate the arms, so it fails, naming the control's value.
  const std::vector<featurelab::JobRecord> both = {finished_job(0, "10", 0, 0.93), finished_job(1, "40", 0, 0.95)};
  CHECK(verdict(spec, both).at("holds") == false);
  CHECK(verdict(spec, both).at("controls").at(0).at("fails_there") == false);
  CHECK_THAT(fail_lines(spec, both), Catch::Contains("control model.width=10") &&
                                         Catch::Contains("0.93 >= 0.9") && Catch::Contains("(it must not hold there)"));
  // A control at step 0: the untrained network must not satisfy it.
  featurelab::AssertSpec untrained;
  untrained.expect = "accuracy.test >= 0.9";
  untrained.controls = {"step=0"};
  CHECK(verdict(untrained, {job_with(0, "", 0, {{0, 0.5}, {100, 0.95}})}).at("holds") == true);
  CHECK(verdict(untrained, {job_with(0, "", 0, {{0, 0.92}, {100, 0.95}})}).at("holds") == false);
}

TEST_CASE("at = \"every\" needs the expectation at every recorded step after initialisation") {
  featurelab::AssertSpec spec;
  spec.expect = "accuracy.test >= 0.9";
  spec.at = "every";
  const std::vector<featurelab::JobRecord> steady = {job_with(0, "", 0, {{0, 0.5}, {50, 0.92}, {100, 0.95}})};
  CHECK(verdict(spec, steady).at("holds") == true);
  CHECK(verdict(spec, steady).at("at_init").at("holds") == false);  // step 0 is the initial state, not checked here
  // A dip at step 50 that the final value hides: "final" passes, "every" names the step.
  const std::vector<featurelab::JobRecord> dip = {job_with(0, "", 0, {{0, 0.5}, {50, 0.85}, {100, 0.95}})};
  CHECK(verdict(spec, dip).at("holds") == false);
  CHECK(verdict(spec, dip).at("checks").at(0).at("step") == "50");
  CHECK_THAT(fail_lines(spec, dip), Catch::Contains("(every, every-seed): seed 0 at step 50: 0.85 >= 0.9 is false"));
  spec.over = "mean";
  CHECK_THAT(fail_lines(spec, dip), Catch::Contains("mean over 1 seed(s) at step 50: 0.85 >= 0.9 is false"));
  spec.over = "every-seed";
  spec.at = "final";
  CHECK(verdict(spec, dip).at("holds") == true);
  // A control passes if the expectation fails at one of its steps.
  spec.at = "every";
  spec.points = "model.width=40";
  spec.controls = {"model.width=10"};
  const auto wide = job_with(1, "40", 0, {{0, 0.5}, {50, 0.92}, {100, 0.95}});
  CHECK(verdict(spec, {job_with(0, "10", 0, {{0, 0.5}, {50, 0.85}, {100, 0.95}}), wide}).at("holds") == true);
  CHECK(verdict(spec, {job_with(0, "10", 0, {{0, 0.5}, {50, 0.91}, {100, 0.95}}), wide}).at("holds") == false);
  // A metric the expression reads that is missing at one of the steps fails it, either way.
  featurelab::AssertSpec two;
  two.expect = "accuracy.test >= train.loss";
  two.at = "every";
  auto partial = job_with(0, "", 0, {{0, 0.5}, {50, 0.92}, {100, 0.95}});
  partial.history["train.loss"] = {{0, 0.1}, {100, 0.1}};
  CHECK(verdict(two, {partial}).at("holds") == false);
  CHECK_THAT(verdict(two, {partial}).at("missing").get<std::string>(), Catch::Contains("no value at step 50"));
}

TEST_CASE("a metric first recorded after step 0 has no initial value, and at = \"every\" reads all of its steps") {
  // A ratio to a bound that is 0 at t = 0 (weight-norms' ‖W‖_F/(2αt)) starts at step 1.
  featurelab::AssertSpec spec;
  spec.expect = "accuracy.test <= 1";
  const auto late = verdict(spec, {job_with(0, "", 0, {{1, 0.5}, {2, 0.7}, {3, 0.6}})});
  CHECK(late.at("at_init").at("holds") == false);
  CHECK(late.at("warnings") == nlohmann::json::array({"no control"}));
  spec.expect = "accuracy.test <= 0.65";
  spec.at = "every";
  const auto every = verdict(spec, {job_with(0, "", 0, {{1, 0.5}, {2, 0.7}, {3, 0.6}})});
  CHECK(every.at("holds") == false);
  CHECK(every.at("checks").at(0).at("step") == "2");
  spec.expect = "accuracy.test <= 0.4";  // step 1 is read too: it fails there first
  CHECK(verdict(spec, {job_with(0, "", 0, {{1, 0.5}, {2, 0.3}})}).at("checks").at(0).at("step") == "1");
}

TEST_CASE("argmax(M) in a selector reads the value of a key, and the step, where M is largest (model selection)") {
  // Two sweep keys: lambda (0, 0.1, 1) and domain (a, b); validation accuracy `val` and test accuracy `ood` at
  // steps 0, 50, 100. Per seed, the selection picks the lambda and step of best val within the same domain.
  auto job = [](std::size_t point, const std::string& lambda, const std::string& domain, std::int64_t seed,
                std::vector<std::pair<featurelab::Index, double>> val, std::vector<std::pair<featurelab::Index, double>> ood) {
    featurelab::JobRecord j;
    j.spec.point = point;
    j.spec.seed = seed;
    j.spec.assignments = {{"lambda", lambda}, {"domain", domain}};
    j.status = featurelab::JobState::ok;
    j.history["p.val"] = std::move(val);
    j.history["p.ood"] = std::move(ood);
    return j;
  };
  const std::vector<featurelab::JobRecord> jobs = {
      job(0, "0", "a", 1, {{0, 0.1}, {50, 0.8}, {100, 0.7}}, {{0, 0.1}, {50, 0.50}, {100, 0.40}}),
      job(1, "0.1", "a", 1, {{0, 0.1}, {50, 0.85}, {100, 0.9}}, {{0, 0.1}, {50, 0.60}, {100, 0.65}}),
      job(2, "1", "a", 1, {{0, 0.1}, {50, 0.95}, {100, 0.6}}, {{0, 0.1}, {50, 0.30}, {100, 0.20}}),
      job(3, "0", "b", 1, {{0, 0.1}, {50, 0.9}, {100, 0.9}}, {{0, 0.1}, {50, 0.70}, {100, 0.75}}),
      job(4, "0.1", "b", 1, {{0, 0.1}, {50, 0.6}, {100, 0.5}}, {{0, 0.1}, {50, 0.90}, {100, 0.90}}),
      job(5, "1", "b", 1, {{0, 0.1}, {50, 0.5}, {100, 0.5}}, {{0, 0.1}, {50, 0.95}, {100, 0.95}}),
  };
  featurelab::AssertSpec spec;
  spec.points = "lambda=0";
  // Domain a: best val over lambda ∈ {0.1, 1} and steps is 0.95 (lambda 1, step 50): ood 0.30, against lambda 0's
  // best-val step (50: 0.8) with ood 0.50. Domain b: lambda 0.1 at step 50 (0.6; the first maximum) gives 0.90,
  // against lambda 0 at step 50 (0.9, first of the tie): 0.70.
  spec.expect = "p.ood[lambda=argmax(p.val; 0.1 1), step=argmax(p.val)] - p.ood[step=argmax(p.val)] >= 0";
  auto v = verdict(spec, jobs);
  CHECK_FALSE(v.at("holds").get<bool>());
  REQUIRE(v.at("checks").size() == 2);
  for (const auto& check : v.at("checks")) {
    const bool a = check.at("point").get<std::string>() == "lambda=0 domain=a";
    CHECK(std::stod(check.at("lhs").get<std::string>()) == Approx(a ? 0.30 - 0.50 : 0.90 - 0.70));
    const auto selected = check.at("selected").get<std::vector<std::string>>();
    CHECK(selected == (a ? std::vector<std::string>{"lambda=1 step=50", "step=50"}
                         : std::vector<std::string>{"lambda=0.1 step=50", "step=50"}));
  }
  // Without the step: each read at the assertion's `at` (final), the lambda of best final val.
  spec.expect = "p.ood[lambda=argmax(p.val)] >= 0.6";
  v = verdict(spec, jobs);
  CHECK(v.at("holds").get<bool>());  // a: lambda 0.1 (0.9) → 0.65; b: lambda 0 (0.9, first of the tie) → 0.75
  CHECK(std::stod(v.at("checks").at(0).at("lhs").get<std::string>()) == Approx(0.65));
  CHECK(std::stod(v.at("checks").at(1).at("lhs").get<std::string>()) == Approx(0.75));

  // A step=argmax(…) chooses among the checkpoints up to the step evaluated: at a step=0 control (and at
  // initialisation) only the untrained network, where every arm is the same.
  spec.points = "lambda=0 domain=b";
  spec.expect = "p.ood[lambda=argmax(p.val; 0.1 1), step=argmax(p.val)] >= p.ood[step=argmax(p.val)] + 0.05";
  spec.controls = {"step=0"};
  v = verdict(spec, jobs);
  CHECK(v.at("holds").get<bool>());
  CHECK(v.at("controls").at(0).at("fails_there").get<bool>());
  CHECK(v.at("controls").at(0).at("checks").at(0).at("selected").get<std::vector<std::string>>() ==
        std::vector<std::string>{"lambda=0.1 step=0", "step=0"});
  CHECK_FALSE(v.at("at_init").at("holds").get<bool>());

  CHECK_THROWS_WITH(Assertion::parse("a.b[x=argmax(p.val] > 1"), Catch::Contains("does not end with ')'"));
  CHECK_THROWS_WITH(Assertion::parse("a.b[x=argmax()] > 1"), Catch::Contains("names no single metric"));
  CHECK_THROWS_WITH(Assertion::parse("a.b[x=argmax(p.val;)] > 1"), Catch::Contains("lists no candidates"));
  REQUIRE(featurelab::parse_argmax("argmax(p.val; 0.1 1)"));
  CHECK(featurelab::parse_argmax("argmax(p.val; 0.1 1)")->candidates == std::vector<std::string>{"0.1", "1"});
  CHECK_FALSE(featurelab::parse_argmax("0.1"));
}

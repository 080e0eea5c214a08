// The std callbacks in a real training loop (FakeTrainerHost runs the SDK's loop, as a job does): early stopping by
// target and by patience, a misnamed metric refused with the names recorded, and gradient clipping bounding each
// update; each beside the same run without the callback.
#include "std_harness.hpp"
#include "xor_trainer_setup.hpp"

#include <featurelab/callback.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace featurelab;
using std_test::harness;

namespace {

using CallbackRun = std_test::XorTrainerSetup;

// `steps` steps of the XOR setup, probes every 10, train.loss recorded at every step.
CallbackRun callback_run(std::int64_t steps, double lr = 0.1) {
  return std_test::xor_trainer_setup({{"steps", steps}, {"eval_every", std::int64_t(10)}, {"log_every", std::int64_t(1)}}, lr);
}

}  // namespace

TEST_CASE("early-stopping: a target ends the job at the first evaluation that reaches it") {
  auto without = callback_run(300);
  Rng rng(1);
  without.host->run(rng);
  const std::vector<double> losses = without.host->values("train.loss");
  REQUIRE(without.host->done == 300);
  // A target the run without the callback reaches between its evaluations at steps 100 and 300.
  const double target = 0.5 * (losses[99] + losses[299]);
  REQUIRE(losses[299] < target);

  auto with = callback_run(300);
  auto stopping = harness().make<Callback>("early-stopping", {{"monitor", std::string("train.loss")}, {"target", target},
                                                              {"patience", std::int64_t(0)}}, {});
  with.host->add_callback(*stopping);
  Rng rng2(1);
  with.host->run(rng2);
  const Index stopped = with.host->done;
  CHECK(stopped > 100);
  CHECK(stopped < 300);
  CHECK(stopped % 10 == 0);  // at an evaluation
  CHECK(with.host->stopped_by_callback() == stopped);
  CHECK(with.host->values("early-stopping.stopped_at") == std::vector<double>{static_cast<double>(stopped)});
  CHECK(with.host->evaluated.back() == stopped);  // the probes see the step it stopped at
  // The same bits as the run without it up to there, and the evaluation before it had not reached the target.
  const std::vector<double> mine = with.host->values("train.loss");
  REQUIRE(mine.size() == static_cast<std::size_t>(stopped));
  CHECK(mine.back() == losses[static_cast<std::size_t>(stopped) - 1]);
  CHECK(mine.back() <= target);
  CHECK(mine[static_cast<std::size_t>(stopped) - 11] > target);
}

TEST_CASE("early-stopping: patience counts evaluations without improvement, min_delta what improves") {
  auto run = callback_run(200);
  // A probe whose value improves until step 30, then stays: with patience 3 the job stops at step 60.
  run.host->on_probes = [&](Index step) { run.host->record(step, "score.test", std::min<double>(static_cast<double>(step), 30.0)); };
  auto stopping = harness().make<Callback>("early-stopping", {{"monitor", std::string("score.test")}, {"mode", std::string("max")},
                                                              {"patience", std::int64_t(3)}}, {});
  run.host->add_callback(*stopping);
  Rng rng(1);
  run.host->run(rng);
  CHECK(run.host->done == 60);
  CHECK(run.host->values("early-stopping.best").back() == 30.0);
  CHECK(run.host->values("early-stopping.best_step").back() == 30.0);

  // A score that gains 10 at every evaluation: with patience 1 it runs to the end, unless min_delta = 10 asks for
  // more than that (stopped at the first evaluation after step 0).
  for (const auto& [min_delta, expected] : {std::pair{0.0, Index(200)}, std::pair{10.0, Index(10)}}) {
    auto rising = callback_run(200);
    rising.host->on_probes = [&](Index step) { rising.host->record(step, "score.test", static_cast<double>(step)); };
    auto stopping_rise = harness().make<Callback>("early-stopping", {{"monitor", std::string("score.test")}, {"mode", std::string("max")},
                                                                     {"patience", std::int64_t(1)}, {"min_delta", min_delta}}, {});
    rising.host->add_callback(*stopping_rise);
    Rng rng2(1);
    rising.host->run(rng2);
    CHECK(rising.host->done == expected);
  }
}

TEST_CASE("early-stopping: a metric never recorded is refused with the names that are") {
  auto run = callback_run(50);
  run.host->on_probes = [&](Index step) { run.host->record(step, "accuracy.test", 0.5); };
  auto stopping = harness().make<Callback>("early-stopping", {{"monitor", std::string("acuracy.test")}}, {});
  run.host->add_callback(*stopping);
  Rng rng(1);
  CHECK_THROWS_WITH(run.host->run(rng), Catch::Contains("monitor = \"acuracy.test\" is not recorded at step 0") &&
                                            Catch::Contains("recorded there: accuracy.test"));
  CHECK_THROWS_WITH(harness().make<Callback>("early-stopping", {{"monitor", std::string("train.loss")}, {"patience", std::int64_t(0)}}, {}),
                    Catch::Contains("would never stop the job"));
}

TEST_CASE("gradient-clipping: every update is at most lr times max_norm, and only the steps above it are changed") {
  const auto moved_per_step = [](CallbackRun& run) {
    Vec before = run.model->parameters();
    Rng rng(1);
    run.host->run(rng);
    return static_cast<double>((run.model->parameters() - before).norm());
  };
  auto plain = callback_run(1, 1.0);
  const double unclipped = moved_per_step(plain);
  REQUIRE(unclipped > 1e-3);

  auto clipped = callback_run(1, 1.0);
  const double max_norm = unclipped / 4;
  auto clipping = harness().make<Callback>("gradient-clipping", {{"max_norm", max_norm}}, {});
  clipped.host->add_callback(*clipping);
  CHECK(moved_per_step(clipped) == Approx(max_norm).epsilon(1e-4));
  CHECK(clipped.host->values("gradient-clipping.clipped") == std::vector<double>{1.0});
  CHECK(clipped.host->values("gradient-clipping.norm").front() == Approx(unclipped).epsilon(1e-4));

  // A bound above the gradient's norm changes nothing, to the bit.
  auto loose = callback_run(1, 1.0);
  auto loose_clipping = harness().make<Callback>("gradient-clipping", {{"max_norm", unclipped * 2}}, {});
  loose.host->add_callback(*loose_clipping);
  auto reference = callback_run(1, 1.0);
  Rng rng_a(1), rng_b(1);
  loose.host->run(rng_a);
  reference.host->run(rng_b);
  CHECK(loose.model->parameters() == reference.model->parameters());
  CHECK(loose.host->values("gradient-clipping.clipped") == std::vector<double>{0.0});
}

TEST_CASE("checkpoint: saves every N steps, and at each evaluation where the monitored metric is the best so far") {
  auto by_step = callback_run(100);
  auto every = harness().make<Callback>("checkpoint", {{"every", std::int64_t(25)}}, {});
  by_step.host->add_callback(*every);
  Rng rng(1);
  by_step.host->run(rng);
  CHECK(by_step.host->saved == std::vector<Index>{25, 50, 75, 100});

  // A score rising to step 30 and falling after: the best so far at steps 0, 10, 20 and 30, and no later.
  auto by_metric = callback_run(100);
  by_metric.host->on_probes = [&](Index step) {
    by_metric.host->record(step, "score.test", -std::abs(static_cast<double>(step) - 30.0));
  };
  auto best = harness().make<Callback>("checkpoint", {{"monitor", std::string("score.test")}, {"mode", std::string("max")}}, {});
  by_metric.host->add_callback(*best);
  Rng rng2(1);
  by_metric.host->run(rng2);
  CHECK(by_metric.host->saved == std::vector<Index>{0, 10, 20, 30});
  CHECK(by_metric.host->values("checkpoint.best_step").back() == 30.0);
  CHECK_THROWS_WITH(harness().make<Callback>("checkpoint", {}, {}), Catch::Contains("would save nothing"));
}

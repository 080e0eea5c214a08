// Shi 2024 ch. 2's parity setting (Table A.1: d = 500, D = 100 patterns, 2m = 600 units, minibatches of 1000
// of n = 50000) with feature-emergence's own components: dictionary-patterns, truncated-two-layer, hinge, Adam.
// Each row runs the same work with the data's input codes (X = C·M, C n×D: the network multiplies by 100
// columns) and without them (the batch's codes removed: X itself, 500 columns):
//   parity_step          one training step of 1000 rows, as phased-gd's minibatch phase takes it
//   parity_evaluation    the accuracy probe's forward pass over the 50,000 training and 10,000 test rows
// Arguments: input codes (1) or X (0), threads. Counters: GFLOP/s of the direct products' arithmetic (the work the
// step stands for, 4·n·d·m + 2·n·m for a step, 2·n·d·m for an evaluation) and % of the sgemm limit for it, so
// the two arms compare on one scale; the coded arm does about a fifth of that arithmetic.
#include "bench_components.hpp"
#include "machine_limits.hpp"

#include <featurelab/capabilities.hpp>
#include <featurelab/distribution.hpp>
#include <featurelab/loss.hpp>
#include <featurelab/optimizer.hpp>
#include <featurelab/threads.hpp>

#include <benchmark/benchmark.h>

using namespace featurelab;
using featurelab::bench::make;

namespace {

constexpr Index kTrain = 50000, kTest = 10000, kDim = 500, kWidth = 600, kBatch = 1000;

struct Parity {
  std::shared_ptr<Distribution> distribution;
  std::shared_ptr<Model> model;
  Dataset train, test;
};

Parity parity() {
  Parity p;
  p.distribution = make<Distribution>(Kind::Distribution, "dictionary-patterns",
                                      {{"dim", std::int64_t(kDim)}, {"patterns", std::int64_t(100)}}, DataSpec{});
  Rng rng(1);
  p.distribution->sample(kTrain, Split::Train, rng, p.train);
  p.distribution->sample(kTest, Split::Test, rng, p.test);
  p.model = make<Model>(Kind::Model, "truncated-two-layer", {{"width", std::int64_t(kWidth)}}, p.distribution->spec());
  Rng init(2);
  p.model->init(init);
  return p;
}

Batch arm(Batch b, bool coded) {
  if (!coded) {
    b.codes = nullptr;
    b.code_basis = nullptr;
  }
  return b;
}

void parity_step(benchmark::State& state) {
  const bool coded = state.range(0) != 0;
  const int threads = static_cast<int>(state.range(1));
  set_job_threads(threads);
  Parity p = parity();
  auto loss = make<Loss>(Kind::Loss, "hinge", {}, p.distribution->spec());
  auto adam = make<Optimizer>(Kind::Optimizer, "adam", {{"lr", 0.003}}, p.distribution->spec());
  const Index size = p.model->trainable_size();
  Vec grad(size);
  adam->reset(size);
  Index t = 0, cursor = 0;
  auto step = [&] {
    if (cursor + kBatch > kTrain) cursor = 0;
    const Batch batch = arm(Batch::rows(p.train, cursor, kBatch), coded);
    cursor += kBatch;
    const Scalar value = loss->evaluate_with_gradient(*p.model, batch, grad);
    adam->step(p.model->parameters().head(size), grad, t++);
    return value;
  };
  step();  // sizes the buffers
  for (auto _ : state) benchmark::DoNotOptimize(step());
  set_job_threads(1);
  const double nm = double(kBatch) * double(kWidth), params = double(kWidth) * double(kDim + 2);
  bench::report_against_limits(state, 4.0 * nm * double(kDim) + 2.0 * nm,
                               sizeof(Scalar) * (double(kBatch) * double(kDim) + 2.0 * params), threads);
}

void parity_evaluation(benchmark::State& state) {
  const bool coded = state.range(0) != 0;
  const int threads = static_cast<int>(state.range(1));
  set_job_threads(threads);
  Parity p = parity();
  Mat out_train(kTrain, 1), out_test(kTest, 1);
  for (auto _ : state) {
    forward_batch(*p.model, arm(Batch::of(p.train), coded), out_train);
    forward_batch(*p.model, arm(Batch::of(p.test), coded), out_test);
    benchmark::DoNotOptimize(out_test.data());
  }
  set_job_threads(1);
  const double rows = double(kTrain + kTest);
  bench::report_against_limits(state, 2.0 * rows * double(kDim) * double(kWidth),
                               sizeof(Scalar) * rows * double(kDim), threads);
}

}  // namespace

BENCHMARK(parity_step)->ArgsProduct({{0, 1}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(parity_evaluation)->ArgsProduct({{0, 1}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

// The exact Midpoint Mixup loss over all N² pairs (plugin midpoint-mixup-exact, activation space)
// against the naive computations: every midpoint z_ij = (x_i + x_j)/2 through the full model,
// either one pair per forward pass (the definition taken literally) or one anchor i at a time
// (N midpoints per batch), cross-entropy with soft targets. Shapes of issue 4:
// N = 400 and 2000, P = 8 patches, d = 100, k = 10 classes, m = 10 filters per class.
#include "allocation_counter.hpp"
#include "bench_components.hpp"

#include <featurelab/loss.hpp>
#include <featurelab/threads.hpp>

#include <benchmark/benchmark.h>

using namespace featurelab;
using featurelab::bench::make;

namespace {

struct Setup {
  DataSpec spec;
  std::shared_ptr<Model> model;
  Dataset data;
};

Setup setup(Index n) {
  Setup s;
  s.spec.dim = 8 * 100;
  s.spec.classes = 10;
  s.spec.shape.dims = {8, 100};
  s.model = make<Model>(Kind::Model, "patch-two-layer", {{"neurons", std::int64_t(10)}}, s.spec);
  Rng rng(1);
  s.model->init(rng);
  s.data.X.resize(n, 800);
  rng.fill_normal(s.data.X, 0.1);
  s.data.y.resize(n);
  for (Index i = 0; i < n; ++i) s.data.y(i) = static_cast<std::int32_t>(i % 10);
  s.data.classes = 10;
  return s;
}

// Arguments: N, threads of the loss's parallel loop over anchors.
void exact(benchmark::State& state) {
  set_job_threads(static_cast<int>(state.range(1)));
  Setup s = setup(state.range(0));
  auto loss = make<Loss>(Kind::Loss, "midpoint-mixup-exact", {}, s.spec);
  Vec grad(s.model->trainable_size());
  loss->evaluate_with_gradient(*s.model, Batch::of(s.data), grad);  // sizes the buffers
  const bench::AllocationsPerStep allocations;
  for (auto _ : state) benchmark::DoNotOptimize(loss->evaluate_with_gradient(*s.model, Batch::of(s.data), grad));
  allocations.report(state);
  set_job_threads(1);
  const double pairs = double(state.range(0)) * double(state.range(0));
  state.counters["pairs/s"] = benchmark::Counter(pairs * double(state.iterations()), benchmark::Counter::kIsRate);
}

void naive(benchmark::State& state) {
  Setup s = setup(state.range(0));
  const Index n = state.range(0);
  auto ce = make<Loss>(Kind::Loss, "cross-entropy", {}, s.spec);
  Dataset pairs;
  pairs.resize(n, 800, 10);
  pairs.classes = 10;
  Vec grad(s.model->trainable_size()), total(s.model->trainable_size());
  for (auto _ : state) {
    total.setZero();
    double value = 0;
    for (Index i = 0; i < n; ++i) {
      pairs.X = (s.data.X.rowwise() + s.data.X.row(i)) * Scalar(0.5);
      pairs.T.setZero();
      for (Index j = 0; j < n; ++j) {
        pairs.T(j, s.data.y(i)) += Scalar(0.5);
        pairs.T(j, s.data.y(j)) += Scalar(0.5);
      }
      pairs.y = s.data.y;
      value += ce->evaluate_with_gradient(*s.model, Batch::of(pairs), grad);
      total += grad;
    }
    benchmark::DoNotOptimize(value);
    benchmark::DoNotOptimize(total.data());
  }
  const double count = double(n) * double(n);
  state.counters["pairs/s"] = benchmark::Counter(count * double(state.iterations()), benchmark::Counter::kIsRate);
}

// The definition taken literally: N² separate forward and backward passes, one midpoint each.
void naive_per_pair(benchmark::State& state) {
  Setup s = setup(state.range(0));
  const Index n = state.range(0);
  auto ce = make<Loss>(Kind::Loss, "cross-entropy", {}, s.spec);
  Dataset pair;
  pair.resize(1, 800, 10);
  pair.classes = 10;
  Vec grad(s.model->trainable_size()), total(s.model->trainable_size());
  for (auto _ : state) {
    total.setZero();
    double value = 0;
    for (Index i = 0; i < n; ++i) {
      for (Index j = 0; j < n; ++j) {
        pair.X.row(0) = (s.data.X.row(i) + s.data.X.row(j)) * Scalar(0.5);
        pair.T.setZero();
        pair.T(0, s.data.y(i)) += Scalar(0.5);
        pair.T(0, s.data.y(j)) += Scalar(0.5);
        pair.y(0) = s.data.y(i);
        value += ce->evaluate_with_gradient(*s.model, Batch::of(pair), grad);
        total += grad;
      }
    }
    benchmark::DoNotOptimize(value);
    benchmark::DoNotOptimize(total.data());
  }
  const double count = double(n) * double(n);
  state.counters["pairs/s"] = benchmark::Counter(count * double(state.iterations()), benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(naive_per_pair)->Arg(400)->Unit(benchmark::kMillisecond);
BENCHMARK(exact)->Args({400, 1})->Args({400, 2})->Args({2000, 1})->Args({2000, 2})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(naive)->Arg(400)->Unit(benchmark::kMillisecond);

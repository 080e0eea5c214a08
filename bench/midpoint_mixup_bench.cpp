// The exact Midpoint Mixup loss over all N² pairs (plugin midpoint-mixup-exact, activation space)
// against the naive computation: every midpoint z_ij = (x_i + x_j)/2 through the full model, one
// anchor i at a time (N midpoints per batch), cross-entropy with soft targets. Shapes of issue 4:
// N = 400 and 2000, P = 8 patches, d = 100, k = 10 classes, m = 10 filters per class.
#include "registry/catalog.hpp"

#include <featurelab/loss.hpp>

#include <benchmark/benchmark.h>

using namespace featurelab;

namespace {

Catalog& catalog() {
  static Catalog c = [] {
    Catalog cat;
    cat.discover({FEATURELAB_PLUGIN_BUILD_DIR});
    return cat;
  }();
  return c;
}

template <class T>
std::shared_ptr<T> make(Kind kind, const std::string& name, const std::map<std::string, Value>& overrides,
                        const DataSpec& spec) {
  const auto ref = catalog().find(kind, name);
  Params params = Params::defaults(ref.component->schema);
  for (const auto& [k, v] : overrides) params.set(k, v);
  Context ctx;
  ctx.data = spec;
  ctx.path = name;
  return catalog().make<T>(ref, params, ctx);
}

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

void exact(benchmark::State& state) {
  Setup s = setup(state.range(0));
  auto loss = make<Loss>(Kind::Loss, "midpoint-mixup-exact", {}, s.spec);
  Vec grad(s.model->trainable_size());
  for (auto _ : state) benchmark::DoNotOptimize(loss->evaluate_with_gradient(*s.model, Batch::of(s.data), grad));
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

}  // namespace

BENCHMARK(exact)->Arg(400)->Arg(2000)->Unit(benchmark::kMillisecond);
BENCHMARK(naive)->Arg(400)->Unit(benchmark::kMillisecond);

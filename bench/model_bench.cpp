// Training steps of the packs' larger networks, through the plugins as a run makes them, against the
// machine's limits (machine_limits.hpp):
//   transformer     fourier-icl's `transformer` at modular-transformer.toml's k2 arm: 2 layers, 4 heads of
//                   16, width 64, MLP 128, tokens "a_1 o a_2 =" of (a_1 + a_2) mod 31, minibatches of 64,
//                   cross-entropy, AdamW
//   patch_two_layer midpoint-mixup's `patch-two-layer` at warm-start.toml's shape: k = 10 classes, P = 100
//                   patches, 10 neurons per class, N = 200, cross-entropy, forward and backward (GD)
//   symmetric_relu_layer contrastive-decoupling's `symmetric-relu-layer` at augmentation-sweep.toml's largest arm:
//                   a step's 16,640 rows (two views of 8192 positives, 256 negatives) of d1 = 2048 inputs, m = 64
//                   neurons; forward and backward (∇W) on fixed rows (the step's fresh data is drawn elsewhere)
// FLOPs: 6 per parameter and token for the transformer (forward 2, backward 4, the usual estimate: the
// attention scores of 4-token sequences are negligible), 4 per weight and patch for the patch network
// (forward 2, ∇W 2; no input gradient).
#include "allocation_counter.hpp"
#include "bench_components.hpp"
#include "machine_limits.hpp"

#include <featurelab/distribution.hpp>
#include <featurelab/loss.hpp>
#include <featurelab/optimizer.hpp>
#include <featurelab/threads.hpp>

#include <benchmark/benchmark.h>

using namespace featurelab;
using featurelab::bench::make;

namespace {

struct Step {
  FeatureSet features;  // the distribution's (the transformer reads its vocabulary there)
  std::shared_ptr<Model> model;
  std::shared_ptr<Loss> loss;
  std::shared_ptr<Optimizer> optimizer;
  Dataset data;
  Index batch = 0;
};

Dataset sample(const std::string& distribution, const std::map<std::string, Value>& params, Index n, DataSpec& spec,
               FeatureSet& features) {
  auto dist = make<Distribution>(Kind::Distribution, distribution, params, spec);
  spec = dist->spec();
  features = dist->features();
  Dataset data;
  Rng rng(1);
  dist->sample(n, Split::Train, rng, data);
  return data;
}

// Minibatches of consecutive rows, as the standard trainer takes them; `threads` in the plugins' loops.
void train(benchmark::State& state, Step& s, double flops_per_step, int threads) {
  set_job_threads(threads);
  Rng rng(2);
  s.model->init(rng);
  Vec grad(s.model->trainable_size());
  s.optimizer->reset(s.model->trainable_size());
  Index t = 0, cursor = 0;
  auto step = [&] {
    if (cursor + s.batch > s.data.size()) cursor = 0;
    const Batch batch = Batch::rows(s.data, cursor, s.batch);
    cursor += s.batch;
    const Scalar value = s.loss->evaluate_with_gradient(*s.model, batch, grad);
    s.optimizer->step(s.model->parameters().head(s.model->trainable_size()), grad, t++);
    return value;
  };
  step();
  const bench::AllocationsPerStep allocations;
  for (auto _ : state) benchmark::DoNotOptimize(step());
  allocations.report(state);
  const double bytes = sizeof(Scalar) * (double(s.batch) * double(s.data.X.cols()) + 2.0 * double(s.model->trainable_size()));
  bench::report_against_limits(state, flops_per_step, bytes, threads);
  set_job_threads(1);
}

void transformer_step(benchmark::State& state) {
  DataSpec spec;
  Step s;
  s.data = sample("modular-sum", {{"k", std::int64_t(2)}, {"p", std::int64_t(31)}, {"encoding", std::string("tokens")}}, 480,
                  spec, s.features);
  s.model = make<Model>(Kind::Model, "transformer",
                        {{"layers", std::int64_t(2)}, {"heads", std::int64_t(4)}, {"width", std::int64_t(64)},
                         {"head_width", std::int64_t(16)}, {"mlp", std::int64_t(128)}},
                        spec, 1000000, &s.features);
  s.loss = make<Loss>(Kind::Loss, "cross-entropy", {}, spec);
  s.optimizer = make<Optimizer>(Kind::Optimizer, "adamw",
                                {{"lr", 1e-3}, {"beta1", 0.9}, {"beta2", 0.98}, {"weight_decay", 1.0}}, spec);
  s.batch = 64;
  const double tokens = double(s.batch) * double(s.data.X.cols());
  train(state, s, 6.0 * double(s.model->trainable_size()) * tokens, static_cast<int>(state.range(0)));
}

void patch_two_layer_step(benchmark::State& state) {
  DataSpec spec;
  Step s;
  s.data = sample("multiview-patches", {{"classes", std::int64_t(10)}, {"patches", std::int64_t(100)}}, 200, spec, s.features);
  s.model = make<Model>(Kind::Model, "patch-two-layer", {{"neurons", std::int64_t(10)}}, spec, 1000000, &s.features);
  s.loss = make<Loss>(Kind::Loss, "cross-entropy", {}, spec);
  s.optimizer = make<Optimizer>(Kind::Optimizer, "gd", {{"lr", 1.0}}, spec);
  s.batch = 200;
  // Every weight meets every patch of every sample: the model's weights are all shared across patches.
  train(state, s, 4.0 * double(s.model->trainable_size()) * double(s.batch) * 100.0, static_cast<int>(state.range(0)));
}

void symmetric_relu_layer(benchmark::State& state) {
  const Index rows = 16640, inputs = 2048, neurons = 64;
  const int threads = static_cast<int>(state.range(0));
  DataSpec spec;
  spec.dim = inputs;
  spec.classes = 2;
  auto model = make<Model>(Kind::Model, "symmetric-relu-layer", {{"width", std::int64_t(neurons)}}, spec);
  Rng rng(2);
  model->init(rng);
  Mat X(rows, inputs), out(rows, neurons), dout(rows, neurons);
  rng.fill_normal(X);
  rng.fill_normal(dout);
  Vec grad(model->trainable_size());
  set_job_threads(threads);
  auto pass = [&] {
    model->forward(X, out);
    model->backward(X, dout, grad);
    return grad(0);
  };
  pass();
  const bench::AllocationsPerStep allocations;
  for (auto _ : state) benchmark::DoNotOptimize(pass());
  allocations.report(state);
  // X read by each product; the rows' outputs and gradients written and read back.
  const double bytes = sizeof(Scalar) * (2.0 * double(rows) * double(inputs) + 3.0 * double(rows) * double(neurons));
  bench::report_against_limits(state, 4.0 * double(rows) * double(inputs) * double(neurons), bytes, threads);
  set_job_threads(1);
}

}  // namespace

BENCHMARK(transformer_step)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(patch_two_layer_step)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(symmetric_relu_layer)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// Networks composed of layers (std `network`) against the hand-written models they reproduce, one training step
// each, measured alternately in the same benchmark (composed step, hand-written step, composed, ...) so that both
// see the same machine state: the benchmark's time is the composed step's, the counters give the hand-written
// step's mean time and the ratio composed / hand-written (the 1.1× criterion for retiring a model).
//   two_layer_figure1    Frei et al. Figure 1: n = 5000, D = 2, m = 500 ReLU units, fixed balanced readout, full-batch
//                        GD on the logistic loss
//   conv_net_fashion     conv-net at Fashion-MNIST's Table 1 setting: 2×28×28 inputs, 3×3 convolutions of 8 and 16
//                        channels, max pooling, 10 classes, minibatches of 750, Adam; conv-net is a preset of
//                        std's layers (a conv-block per block, bench/README.md rounds 13 and 16), so the row
//                        times it alone
//   conv_layers_fashion  the same network written as conv2d → relu → pool layers per block instead of conv-net's
//                        conv-blocks (the same bits): what the fused pass saves
//   conv_net_evaluate    its forward pass over 10,000 images at once (an accuracy probe's)
//   conv_net_contrastive conv-net at the contrastive digits proxies' setting (contrastive-decoupling's digits-firing):
//                        1×28×28 inputs, 5×5 convolutions of 16 and 32 channels, max pooling, minibatches of 512
//                        (its 256 view pairs and 256 negatives), Adam; a 10-class head stands in for its 64-output
//                        representation and InfoNCE, which cost a few percent of the step
// The conv-net rows give %sgemm: the convolutions' and the head's floating-point operations per step (forward
// 2·n·H'·W'·k²·C_in·C_out for each convolution, the same again for ∇W and, but for the first, for the input's
// gradient) over the best GEMM of the machine at the same thread count (machine_limits.hpp).
//   transformer_k2       fourier-icl's transformer at modular-transformer.toml's k = 2 arm (as model_bench.cpp)
//   transformer_wide     a transformer composed of std's layers at a width where the products are large enough to
//                        matter: width 128, 4 heads of 32 with rotary positions, MLP 512 (GELU), 2 pre-norm blocks,
//                        prompts of 32 tokens (fourier-icl's needle-retrieval), batches of 64, AdamW; %sgemm from
//                        its products' operations (transformer_flops)
#include "bench_components.hpp"
#include "machine_limits.hpp"

#include <featurelab/distribution.hpp>
#include <featurelab/loss.hpp>
#include <featurelab/optimizer.hpp>
#include <featurelab/testing.hpp>
#include <featurelab/threads.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <vector>

using namespace featurelab;
using featurelab::bench::make;
using featurelab::testing::layer;
using featurelab::testing::layers;

namespace {

struct Arm {
  std::shared_ptr<Model> model;
  std::shared_ptr<Loss> loss;
  std::shared_ptr<Optimizer> optimizer;
  Vec grad;
  Index t = 0, cursor = 0;
};

struct Setting {
  DataSpec spec;
  FeatureSet features;
  Dataset data;
  Index batch = 0;
};

Arm arm(const Setting& s, std::shared_ptr<Model> model, const std::string& optimizer,
        const std::map<std::string, Value>& optimizer_params) {
  Arm a;
  a.model = std::move(model);
  a.loss = make<Loss>(Kind::Loss, s.spec.classes == 2 ? "logistic" : "cross-entropy", {}, s.spec);
  a.optimizer = make<Optimizer>(Kind::Optimizer, optimizer, optimizer_params, s.spec);
  Rng rng(2);
  a.model->init(rng);
  a.grad.resize(a.model->trainable_size());
  a.optimizer->reset(a.model->trainable_size());
  return a;
}

double step(const Setting& s, Arm& a) {
  const auto start = std::chrono::steady_clock::now();
  if (a.cursor + s.batch > s.data.size()) a.cursor = 0;
  const Batch batch = Batch::rows(s.data, a.cursor, s.batch);
  a.cursor += s.batch;
  benchmark::DoNotOptimize(a.loss->evaluate_with_gradient(*a.model, batch, a.grad));
  a.optimizer->step(a.model->parameters().head(a.model->trainable_size()), a.grad, a.t++);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// `threads` (the benchmark's argument) in the plugins' loops for both arms.
void alternate(benchmark::State& state, const Setting& s, Arm& composed, Arm& hand) {
  set_job_threads(static_cast<int>(state.range(0)));
  step(s, composed);
  step(s, hand);
  double hand_seconds = 0, composed_seconds = 0;
  for (auto _ : state) {
    const double c = step(s, composed);
    state.SetIterationTime(c);
    composed_seconds += c;
    hand_seconds += step(s, hand);
  }
  const auto n = static_cast<double>(state.iterations());
  state.counters["hand_us"] = 1e6 * hand_seconds / n;
  state.counters["ratio"] = composed_seconds / hand_seconds;
  set_job_threads(1);
}

void two_layer_figure1(benchmark::State& state) {
  Setting s;
  s.spec = testing::spec(2, 2);
  s.data.resize(5000, 2);
  Rng rng(1);
  rng.fill_normal(s.data.X);
  for (Index i = 0; i < 5000; ++i) s.data.y(i) = s.data.X(i, 0) * s.data.X(i, 1) > 0 ? 1 : 0;
  s.data.classes = 2;
  s.batch = 5000;
  const double init_std = 1.0 / std::sqrt(2.0);
  Arm hand = arm(s, make<Model>(Kind::Model, "two-layer", {{"width", std::int64_t(500)}}, s.spec), "gd", {{"lr", 0.1}});
  const Value net = layers({layer("std:linear", {{"out", std::int64_t(500)}, {"bias", false}, {"init_std", init_std}}),
                            layer("std:activation", {{"activation", std::string("relu")}}),
                            layer("std:linear", {{"out", std::int64_t(1)}, {"bias", false}, {"init", std::string("balanced")},
                                                 {"trainable", false}})});
  Arm composed = arm(s, make<Model>(Kind::Model, "network", {{"layer", net}}, s.spec), "gd", {{"lr", 0.1}});
  alternate(state, s, composed, hand);
}

// The shape of a conv-net arm: images in_channels × 28 × 28, convolutions of `channels`, k×k, each followed by
// 2×2 max pooling, a 10-class head.
struct ConvShape {
  Index in_channels;
  std::vector<std::int64_t> channels;
  Index kernel;
};
const ConvShape kFashion{2, {8, 16}, 3};
const ConvShape kContrastive{1, {16, 32}, 5};

Setting image_setting(const ConvShape& shape, Index rows, Index batch) {
  Setting s;
  s.spec = testing::spec(shape.in_channels * 28 * 28, 10);
  s.data.resize(rows, shape.in_channels * 28 * 28);
  Rng rng(1);
  rng.fill_uniform(s.data.X, 0, 1);
  for (Index i = 0; i < s.data.size(); ++i) s.data.y(i) = static_cast<std::int32_t>(i % 10);
  s.data.classes = 10;
  s.batch = batch;
  return s;
}

// std conv-net: a preset of conv2d → relu → pool blocks, flatten, linear; Adam.
Arm conv_net(const Setting& s, const ConvShape& shape) {
  return arm(s,
             make<Model>(Kind::Model, "conv-net",
                         {{"channels", shape.channels}, {"kernel", std::int64_t(shape.kernel)},
                          {"in_channels", std::int64_t(shape.in_channels)}},
                         s.spec),
             "adam", {{"lr", 1e-3}});
}

// Floating-point operations of one training step of n images (the header's count) and of its forward pass alone.
struct ConvFlops {
  double step = 0, forward = 0;
};
ConvFlops conv_net_flops(const ConvShape& shape, Index n) {
  ConvFlops f;
  double side = 28, in = double(shape.in_channels);
  for (std::size_t l = 0; l < shape.channels.size(); ++l) {
    const double out = double(shape.channels[l]);
    const double product = 2.0 * double(n) * side * side * double(shape.kernel * shape.kernel) * in * out;
    f.forward += product;
    f.step += product * (l == 0 ? 2 : 3);
    side = std::floor(side / 2);
    in = out;
  }
  const double head = 2.0 * double(n) * side * side * in * 10;
  f.forward += head;
  f.step += 3 * head;
  return f;
}

// The same network as conv2d → relu → pool written as three layers per block (what conv-net was before its
// blocks became conv-blocks), with conv-net's block names.
Arm conv_layers(const Setting& s, const ConvShape& shape) {
  std::vector<ComponentSpec> list;
  for (std::size_t b = 0; b < shape.channels.size(); ++b) {
    std::map<std::string, Value> conv{{"channels", shape.channels[b]}, {"kernel", std::int64_t(shape.kernel)}};
    if (b == 0) conv["in_channels"] = std::int64_t(shape.in_channels);
    list.push_back(layer("std:conv2d", conv));
    list.push_back(layer("std:activation", {{"activation", std::string("relu")}}));
    list.push_back(layer("std:pool"));
  }
  list.push_back(layer("std:flatten"));
  list.push_back(layer("std:linear"));
  return arm(s, make<Model>(Kind::Model, "network", {{"layer", layers(list)}}, s.spec), "adam", {{"lr", 1e-3}});
}

void conv_net_step(benchmark::State& state, const ConvShape& shape, Index batch, bool in_a_row = false) {
  const Setting s = image_setting(shape, 2 * batch, batch);
  Arm net = in_a_row ? conv_layers(s, shape) : conv_net(s, shape);
  const int threads = static_cast<int>(state.range(0));
  set_job_threads(threads);
  step(s, net);
  for (auto _ : state) state.SetIterationTime(step(s, net));
  set_job_threads(1);
  const double bytes = sizeof(Scalar) * (double(batch) * double(s.data.X.cols()) + 2.0 * double(net.model->trainable_size()));
  bench::report_against_limits(state, conv_net_flops(shape, batch).step, bytes, threads);
}

void conv_net_fashion(benchmark::State& state) { conv_net_step(state, kFashion, 750); }
void conv_layers_fashion(benchmark::State& state) { conv_net_step(state, kFashion, 750, true); }
void conv_net_contrastive(benchmark::State& state) { conv_net_step(state, kContrastive, 512); }

// The accuracy probe's pass: forward over 10,000 images at once (Fashion-MNIST's test set).
void conv_net_evaluate(benchmark::State& state) {
  const Setting s = image_setting(kFashion, 10000, 10000);
  Arm net = conv_net(s, kFashion);
  const int threads = static_cast<int>(state.range(0));
  set_job_threads(threads);
  Mat out(s.data.size(), 10);
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    net.model->forward(s.data.X, out);
    benchmark::DoNotOptimize(out.data());
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  set_job_threads(1);
  bench::report_against_limits(state, conv_net_flops(kFashion, s.data.size()).forward, sizeof(Scalar) * double(s.data.X.size()), threads);
}

void transformer_k2(benchmark::State& state) {
  Setting s;
  auto dist = make<Distribution>(Kind::Distribution, "modular-sum",
                                 {{"k", std::int64_t(2)}, {"p", std::int64_t(31)}, {"encoding", std::string("tokens")}}, s.spec);
  s.spec = dist->spec();
  s.features = dist->features();
  Rng rng(1);
  dist->sample(480, Split::Train, rng, s.data);
  s.batch = 64;
  const std::map<std::string, Value> adamw{{"lr", 1e-3}, {"beta1", 0.9}, {"beta2", 0.98}, {"weight_decay", 1.0}};
  Arm hand = arm(s,
                 make<Model>(Kind::Model, "transformer",
                             {{"layers", std::int64_t(2)}, {"heads", std::int64_t(4)}, {"width", std::int64_t(64)},
                              {"head_width", std::int64_t(16)}, {"mlp", std::int64_t(128)}},
                             s.spec, 1000000, &s.features),
                 "adamw", adamw);
  std::vector<ComponentSpec> body{layer("std:embedding", {{"width", std::int64_t(64)}, {"scale", std::string("sqrt-width")}})};
  for (int l = 0; l < 2; ++l) {
    body.push_back(layer("std:residual", {{"layers", layers({layer("std:layer-norm"),
                                                              layer("std:attention", {{"heads", std::int64_t(4)}})},
                                                             "model.layer.r")}}));
    body.push_back(layer("std:residual",
                         {{"layers", layers({layer("std:layer-norm"), layer("std:linear", {{"out", std::int64_t(128)}}),
                                             layer("std:activation", {{"activation", std::string("gelu")}}),
                                             layer("std:linear", {{"out", std::int64_t(64)}})},
                                            "model.layer.m")}}));
  }
  body.push_back(layer("std:layer-norm"));
  body.push_back(layer("std:last-token"));
  body.push_back(layer("std:linear"));
  Arm composed = arm(s, make<Model>(Kind::Model, "network", {{"layer", layers(body)}}, s.spec, 1000000, &s.features),
                     "adamw", adamw);
  alternate(state, s, composed, hand);
}

// Floating-point operations of one training step of the products of a pre-norm transformer with `blocks` blocks,
// n sequences of T tokens, width d, MLP width f, c classes: per block and sequence the projections q, k, v, o
// (4·2·T·d²), the scores and the weighted values (2·2·T²·d), the MLP (2·2·T·d·f); the head on the last token
// (2·d·c). The backward pass multiplies twice as much (the input's and the weights' gradients): 3× in all.
double transformer_flops(Index blocks, Index n, Index T, Index d, Index f, Index c) {
  const double per_block = 8.0 * double(T * d * d) + 4.0 * double(T * T * d) + 4.0 * double(T * d * f);
  return 3.0 * double(n) * (double(blocks) * per_block + 2.0 * double(d * c));
}

void transformer_wide(benchmark::State& state) {
  constexpr Index kWidth = 128, kMlp = 512, kBlocks = 2, kTokens = 32;
  Setting s;
  auto dist = make<Distribution>(Kind::Distribution, "needle-retrieval", {{"length", std::int64_t(kTokens)}}, s.spec);
  s.spec = dist->spec();
  s.features = dist->features();
  Rng rng(1);
  dist->sample(640, Split::Train, rng, s.data);
  s.batch = 64;
  std::vector<ComponentSpec> body{layer("std:embedding", {{"width", std::int64_t(kWidth)}, {"positions", std::string("none")}})};
  for (Index l = 0; l < kBlocks; ++l) {
    body.push_back(layer("std:residual", {{"layers", layers({layer("std:layer-norm"),
                                                              layer("std:attention", {{"heads", std::int64_t(4)},
                                                                                      {"positions", std::string("rope")}})},
                                                             "model.layer.r")}}));
    body.push_back(layer("std:residual",
                         {{"layers", layers({layer("std:layer-norm"), layer("std:linear", {{"out", std::int64_t(kMlp)}}),
                                             layer("std:activation", {{"activation", std::string("gelu")}}),
                                             layer("std:linear", {{"out", std::int64_t(kWidth)}})},
                                            "model.layer.m")}}));
  }
  body.push_back(layer("std:layer-norm"));
  body.push_back(layer("std:last-token"));
  body.push_back(layer("std:linear"));
  Arm net = arm(s, make<Model>(Kind::Model, "network", {{"layer", layers(body)}}, s.spec, 1000000, &s.features), "adamw",
                {{"lr", 1e-3}, {"beta1", 0.9}, {"beta2", 0.98}, {"weight_decay", 1.0}});
  const int threads = static_cast<int>(state.range(0));
  set_job_threads(threads);
  step(s, net);
  for (auto _ : state) state.SetIterationTime(step(s, net));
  set_job_threads(1);
  const double flops = transformer_flops(kBlocks, s.batch, kTokens, kWidth, kMlp, s.spec.classes);
  bench::report_against_limits(state, flops, sizeof(Scalar) * 2.0 * double(net.model->trainable_size()), threads);
}

}  // namespace

BENCHMARK(two_layer_figure1)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseManualTime();
BENCHMARK(conv_net_fashion)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK(conv_layers_fashion)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK(conv_net_contrastive)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK(conv_net_evaluate)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK(transformer_k2)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseManualTime();
BENCHMARK(transformer_wide)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseManualTime();

// One full-batch GD step of std `two-layer` + `logistic` + `gd`, driven through the plugins, next
// to a hand-written Eigen step of the same math and a plain GEMM of the forward pass's shape.
//
// Shapes: feature averaging E1 (n=1000, D=3072, m=10) and Frei et al. Figure 1 (n=5000, D=2,
// m=500). Counters: GFLOP/s (the two GEMMs of a step, 4·n·D·m, plus the O(n·m) elementwise work
// counted as 8·n·m).
#include "bench_components.hpp"

#include <featurelab/loss.hpp>
#include <featurelab/optimizer.hpp>

#include <benchmark/benchmark.h>

using namespace featurelab;
using featurelab::bench::make;

namespace {

struct Shape {
  Index n, d, m;
};

Dataset make_data(const Shape& s) {
  Dataset data;
  Rng rng(1);
  data.X.resize(s.n, s.d);
  rng.fill_normal(data.X);
  data.y.resize(s.n);
  for (Index i = 0; i < s.n; ++i) data.y(i) = static_cast<std::int32_t>(rng.integer(0, 1));
  data.classes = 2;
  return data;
}

double step_flops(const Shape& s) {
  return 4.0 * double(s.n) * double(s.d) * double(s.m) + 8.0 * double(s.n) * double(s.m);
}

void plugin_step(benchmark::State& state, Shape s) {
  DataSpec spec;
  spec.dim = s.d;
  spec.classes = 2;
  auto model = make<Model>(Kind::Model, "two-layer", {{"width", std::int64_t(s.m)}, {"bias", true}}, spec);
  auto loss = make<Loss>(Kind::Loss, "logistic", {}, spec);
  auto opt = make<Optimizer>(Kind::Optimizer, "gd", {{"lr", 0.01}}, spec);
  Rng rng(2);
  model->init(rng);
  const Dataset data = make_data(s);
  const Batch batch = Batch::of(data);
  Vec grad(model->trainable_size());
  opt->reset(model->trainable_size());
  Index t = 0;
  for (auto _ : state) {
    const Scalar value = loss->evaluate_with_gradient(*model, batch, grad);
    opt->step(model->parameters().head(model->trainable_size()), grad, t++);
    benchmark::DoNotOptimize(value);
  }
  state.counters["GFLOP/s"] = benchmark::Counter(step_flops(s) * double(state.iterations()) / 1e9,
                                                 benchmark::Counter::kIsRate);
}

// The same step written by hand: two GEMMs and unfused elementwise passes.
void handwritten_step(benchmark::State& state, Shape s) {
  const Dataset data = make_data(s);
  Rng rng(2);
  Mat W(s.m, s.d);
  rng.fill_normal(W, 1.0 / std::sqrt(double(s.d)));
  Vec b = Vec::Zero(s.m);
  Vec a(s.m);
  for (Index j = 0; j < s.m; ++j) a(j) = (j < s.m / 2 ? 1 : -1) / std::sqrt(Scalar(s.m));
  Vec ysign(s.n);
  for (Index i = 0; i < s.n; ++i) ysign(i) = data.y(i) == 1 ? 1 : -1;
  Mat Z(s.n, s.m), G(s.n, s.m), dW(s.m, s.d);
  Vec f(s.n), coef(s.n);
  for (auto _ : state) {
    Z.noalias() = data.X * W.transpose();
    Z.rowwise() += b.transpose();
    f.noalias() = Z.cwiseMax(Scalar(0)) * a;
    coef = -(ysign.array() / (Scalar(1) + (ysign.array() * f.array()).exp())) / Scalar(s.n);
    G = (coef * a.transpose()).array() * (Z.array() > Scalar(0)).template cast<Scalar>();
    dW.noalias() = G.transpose() * data.X;
    W -= Scalar(0.01) * dW;
    b -= Scalar(0.01) * G.colwise().sum().transpose();
    benchmark::DoNotOptimize(W.data());
  }
  state.counters["GFLOP/s"] = benchmark::Counter(step_flops(s) * double(state.iterations()) / 1e9,
                                                 benchmark::Counter::kIsRate);
}

// A plain GEMM of the forward pass's shape: the machine's reference speed for this shape.
void plain_gemm(benchmark::State& state, Shape s) {
  const Dataset data = make_data(s);
  Mat W(s.m, s.d);
  Rng(3).fill_normal(W);
  Mat Z(s.n, s.m);
  for (auto _ : state) {
    Z.noalias() = data.X * W.transpose();
    benchmark::DoNotOptimize(Z.data());
  }
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * double(s.n) * double(s.d) * double(s.m) *
                                                     double(state.iterations()) / 1e9,
                                                 benchmark::Counter::kIsRate);
}

const Shape kFeatureAveraging{1000, 3072, 10};
const Shape kFigure1{5000, 2, 500};

}  // namespace

BENCHMARK_CAPTURE(plugin_step, feature_averaging_n1000_d3072_m10, kFeatureAveraging)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(handwritten_step, feature_averaging_n1000_d3072_m10, kFeatureAveraging)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(plain_gemm, feature_averaging_n1000_d3072_m10, kFeatureAveraging)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(plugin_step, figure1_n5000_d2_m500, kFigure1)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(handwritten_step, figure1_n5000_d2_m500, kFigure1)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(plain_gemm, figure1_n5000_d2_m500, kFigure1)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();

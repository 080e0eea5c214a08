// One training step of std `two-layer` + `logistic` + an std optimizer, driven through the plugins,
// next to a hand-written Eigen step of the same math (two GEMMs, unfused elementwise passes) and a
// plain GEMM of the forward pass's shape. Workloads of issue 11:
//   figure1         Frei et al. Figure 1: n = 5000, D = 2, m = 500, full-batch GD, fixed balanced a
//   fa_n1000        feature averaging, Fig. 2a's setting: n = 1000, D = 3072, m = 10, bias, full-batch GD
//   fa_n10000       the same at n = 10000: X is 123 MB (float), memory-bound
//   parity          dissertation ch. 2: minibatches of 1000 consecutive rows (a view, no copy) of
//                   n = 50000, D = 500, m = 600, trainable a, SGD with momentum 0.9
// Counters: GFLOP/s (the GEMMs of a step, 4·n·D·m, plus 2·n·m for a trainable a, plus the O(n·m)
// elementwise work counted as 8·n·m) and allocs/step (every heap allocation of the process).
#include "allocation_counter.hpp"
#include "bench_components.hpp"
#include "machine_limits.hpp"

#include <featurelab/loss.hpp>
#include <featurelab/optimizer.hpp>

#include <featurelab/threads.hpp>

#include <benchmark/benchmark.h>

#include <cmath>

using namespace featurelab;
using featurelab::bench::make;

namespace {

struct Workload {
  Index n, d, m;
  Index batch;          // rows per step (consecutive); n = full batch
  bool trainable_a;     // second layer trained (parity) or fixed balanced (Frei et al.)
  double momentum;      // 0 = plain gradient descent
};

Dataset make_data(const Workload& w) {
  Dataset data;
  Rng rng(1);
  data.X.resize(w.n, w.d);
  rng.fill_normal(data.X);
  data.y.resize(w.n);
  for (Index i = 0; i < w.n; ++i) data.y(i) = static_cast<std::int32_t>(rng.integer(0, 1));
  data.classes = 2;
  return data;
}

double step_flops(const Workload& w) {
  const double nm = double(w.batch) * double(w.m);
  return 4.0 * nm * double(w.d) + (w.trainable_a ? 2.0 * nm : 0.0) + 8.0 * nm;
}

// The bytes a step cannot avoid: its rows of X read once, the parameters read and written once.
double step_bytes(const Workload& w) {
  const double params = double(w.m) * double(w.d + 2);
  return sizeof(Scalar) * (double(w.batch) * double(w.d) + 2.0 * params);
}

void count_flops(benchmark::State& state, const Workload& w, int threads = 1) {
  bench::report_against_limits(state, step_flops(w), step_bytes(w), threads);
}

void plugin_step(benchmark::State& state, Workload w, int threads = 1) {
  DataSpec spec;
  spec.dim = w.d;
  spec.classes = 2;
  std::map<std::string, Value> model_params = {{"width", std::int64_t(w.m)}, {"bias", true}};
  if (w.trainable_a) model_params["second_layer"] = std::string("trainable");
  auto model = make<Model>(Kind::Model, "two-layer", model_params, spec);
  auto loss = make<Loss>(Kind::Loss, "logistic", {}, spec);
  auto opt = w.momentum > 0 ? make<Optimizer>(Kind::Optimizer, "sgd", {{"lr", 0.01}, {"momentum", w.momentum}}, spec)
                            : make<Optimizer>(Kind::Optimizer, "gd", {{"lr", 0.01}}, spec);
  Rng rng(2);
  model->init(rng);
  const Dataset data = make_data(w);
  Vec grad(model->trainable_size());
  opt->reset(model->trainable_size());
  Index t = 0, cursor = 0;
  auto step = [&] {
    if (cursor + w.batch > w.n) cursor = 0;
    const Batch batch = Batch::rows(data, cursor, w.batch);  // the standard trainer's view of consecutive rows
    cursor += w.batch;
    const Scalar value = loss->evaluate_with_gradient(*model, batch, grad);
    opt->step(model->parameters().head(model->trainable_size()), grad, t++);
    return value;
  };
  step();  // sizes the buffers
  const bench::AllocationsPerStep allocations;
  for (auto _ : state) benchmark::DoNotOptimize(step());
  allocations.report(state);
  count_flops(state, w, threads);
}

// The plugin step with two threads in the plugins' parallel loops (featurelab/threads.hpp: the
// Figure 1 model's row chunks); the GEMMs stay on one thread, as in every featurelab job.
void plugin_step_2_threads(benchmark::State& state, Workload w) {
  set_job_threads(2);
  plugin_step(state, w, 2);
  set_job_threads(1);
}

// The same step written by hand: two GEMMs (three with a trainable a) and unfused elementwise passes.
void handwritten_step(benchmark::State& state, Workload w) {
  const Dataset data = make_data(w);
  Rng rng(2);
  Mat W(w.m, w.d);
  rng.fill_normal(W, 1.0 / std::sqrt(double(w.d)));
  Vec b = Vec::Zero(w.m);
  Vec a(w.m);
  for (Index j = 0; j < w.m; ++j) a(j) = (j < w.m / 2 ? 1 : -1) / std::sqrt(Scalar(w.m));
  Vec ysign(w.n);
  for (Index i = 0; i < w.n; ++i) ysign(i) = data.y(i) == 1 ? 1 : -1;
  Mat Z(w.batch, w.m), H(w.batch, w.m), G(w.batch, w.m), dW(w.m, w.d), vW = Mat::Zero(w.m, w.d);
  Vec f(w.batch), coef(w.batch), da(w.m), db(w.m), va = Vec::Zero(w.m), vb = Vec::Zero(w.m);
  const auto mu = static_cast<Scalar>(w.momentum), lr = Scalar(0.01);
  Index cursor = 0;
  auto step = [&] {
    if (cursor + w.batch > w.n) cursor = 0;
    const auto X = data.X.middleRows(cursor, w.batch);
    const auto y = ysign.segment(cursor, w.batch);
    cursor += w.batch;
    Z.noalias() = X * W.transpose();
    Z.rowwise() += b.transpose();
    H = Z.cwiseMax(Scalar(0));
    f.noalias() = H * a;
    coef = -(y.array() / (Scalar(1) + (y.array() * f.array()).exp())) / Scalar(w.batch);
    G = (coef * a.transpose()).array() * (Z.array() > Scalar(0)).template cast<Scalar>();
    dW.noalias() = G.transpose() * X;
    db = G.colwise().sum().transpose();
    if (w.trainable_a) da.noalias() = H.transpose() * coef;
    if (mu > 0) {
      vW = mu * vW + dW;
      vb = mu * vb + db;
      W -= lr * vW;
      b -= lr * vb;
      if (w.trainable_a) {
        va = mu * va + da;
        a -= lr * va;
      }
    } else {
      W -= lr * dW;
      b -= lr * db;
      if (w.trainable_a) a -= lr * da;
    }
    return f(0);
  };
  step();
  const bench::AllocationsPerStep allocations;
  for (auto _ : state) benchmark::DoNotOptimize(step());
  allocations.report(state);
  count_flops(state, w);
}

// A plain GEMM of the forward pass's shape: the machine's reference speed for this shape.
void plain_gemm(benchmark::State& state, Workload w) {
  const Dataset data = make_data(w);
  Mat W(w.m, w.d);
  Rng(3).fill_normal(W);
  Mat Z(w.batch, w.m);
  Z.noalias() = data.X.topRows(w.batch) * W.transpose();
  const bench::AllocationsPerStep allocations;
  for (auto _ : state) {
    Z.noalias() = data.X.topRows(w.batch) * W.transpose();
    benchmark::DoNotOptimize(Z.data());
  }
  allocations.report(state);
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * double(w.batch) * double(w.d) * double(w.m) *
                                                     double(state.iterations()) / 1e9,
                                                 benchmark::Counter::kIsRate);
}

// The machine's GEMM peak: a square product large enough to run at full speed.
void gemm_peak(benchmark::State& state) {
  const Index s = state.range(0);
  Mat A(s, s), B(s, s), C(s, s);
  Rng(4).fill_normal(A);
  Rng(5).fill_normal(B);
  for (auto _ : state) {
    C.noalias() = A * B;
    benchmark::DoNotOptimize(C.data());
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(2.0 * double(s) * double(s) * double(s) * double(state.iterations()) / 1e9,
                         benchmark::Counter::kIsRate);
}

const Workload kFigure1{5000, 2, 500, 5000, false, 0.0};
const Workload kFeatureAveraging{1000, 3072, 10, 1000, false, 0.0};
const Workload kFeatureAveraging10k{10000, 3072, 10, 10000, false, 0.0};
const Workload kParity{50000, 500, 600, 1000, true, 0.9};

}  // namespace

#define FEATURELAB_STEP_BENCHMARKS(name, workload)                                                 \
  BENCHMARK_CAPTURE(plugin_step, name, workload)->Unit(benchmark::kMicrosecond)->UseRealTime();     \
  BENCHMARK_CAPTURE(plugin_step_2_threads, name, workload)->Unit(benchmark::kMicrosecond)->UseRealTime(); \
  BENCHMARK_CAPTURE(handwritten_step, name, workload)->Unit(benchmark::kMicrosecond)->UseRealTime(); \
  BENCHMARK_CAPTURE(plain_gemm, name, workload)->Unit(benchmark::kMicrosecond)->UseRealTime();

FEATURELAB_STEP_BENCHMARKS(figure1_n5000_d2_m500, kFigure1)
FEATURELAB_STEP_BENCHMARKS(fa_n1000_d3072_m10, kFeatureAveraging)
FEATURELAB_STEP_BENCHMARKS(fa_n10000_d3072_m10, kFeatureAveraging10k)
FEATURELAB_STEP_BENCHMARKS(parity_batch1000_of_n50000_d500_m600, kParity)
BENCHMARK(gemm_peak)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();

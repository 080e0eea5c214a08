#include "machine_limits.hpp"

#include <Eigen/Core>

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace featurelab::bench {

namespace {

// Column-major C (M×N) = A (M×K) · B (K×N), single-threaded: one library's sgemm.
using Sgemm = std::function<void(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc)>;

struct Library {
  std::string name;
  Sgemm sgemm;
};

// cblas_sgemm's signature and the CBLAS constants it takes (cblas.h: CblasColMajor, CblasNoTrans).
using CblasSgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
constexpr int kColMajor = 102, kNoTrans = 111;

// Debian's single-threaded builds of OpenBLAS and BLIS (packages libopenblas0-serial and
// libblis4-serial), opened side by side with RTLD_LOCAL: both define cblas_sgemm, and neither may
// become the product of the rest of the binary. A library that is not installed is left out.
std::vector<Library> libraries() {
  std::vector<Library> found;
  found.push_back({"eigen", [](int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc) {
                     using Stride = Eigen::OuterStride<>;
                     Eigen::Map<const Eigen::MatrixXf, 0, Stride> A(a, m, k, Stride(lda));
                     Eigen::Map<const Eigen::MatrixXf, 0, Stride> B(b, k, n, Stride(ldb));
                     Eigen::Map<Eigen::MatrixXf, 0, Stride> C(c, m, n, Stride(ldc));
                     C.noalias() = A * B;
                   }});
  const std::string dir = std::string("/usr/lib/") + FEATURELAB_MULTIARCH + "/";
  const std::pair<const char*, const char*> builds[] = {{"openblas-serial", "openblas-serial/libopenblas.so.0"},
                                                        {"blis-serial", "blis-serial/libblis.so.4"}};
  for (const auto& [name, file] : builds) {
    void* handle = ::dlopen((dir + file).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) continue;
    auto* gemm = reinterpret_cast<CblasSgemm>(::dlsym(handle, "cblas_sgemm"));
    if (!gemm) continue;
    found.push_back({name, [gemm](int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc) {
                       gemm(kColMajor, kNoTrans, kNoTrans, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
                     }});
  }
  return found;
}

const std::vector<Library>& all_libraries() {
  static const std::vector<Library> found = libraries();
  return found;
}

constexpr int kGemmSize = 1024;
constexpr Eigen::Index kBandwidthFloats = Eigen::Index(10000) * 3072;  // 123 MB: feature averaging's X at n = 10000

struct GemmOperands {
  Eigen::MatrixXf A = Eigen::MatrixXf::Random(kGemmSize, kGemmSize);
  Eigen::MatrixXf B = Eigen::MatrixXf::Random(kGemmSize, kGemmSize);
  Eigen::MatrixXf C = Eigen::MatrixXf::Zero(kGemmSize, kGemmSize);
};

// One 1024³ product on `threads` threads: the output's columns in fixed halves, each half one
// single-threaded call, as featurelab's own products split their work.
void gemm_on_threads(const Library& lib, GemmOperands& g, int threads) {
  const int s = kGemmSize, half = s / 2;
  if (threads == 1) {
    lib.sgemm(s, s, s, g.A.data(), s, g.B.data(), s, g.C.data(), s);
    return;
  }
#pragma omp parallel for num_threads(threads) schedule(static, 1)
  for (int part = 0; part < 2; ++part) {
    lib.sgemm(s, half, s, g.A.data(), s, g.B.data() + std::ptrdiff_t(part) * half * s, s,
              g.C.data() + std::ptrdiff_t(part) * half * s, s);
  }
}

double gemm_flops() { return 2.0 * kGemmSize * double(kGemmSize) * kGemmSize; }

// The best of several timed repetitions of f, in seconds.
template <class F>
double best_seconds(F&& f, int repetitions) {
  f();  // warm-up: first touch, the library's own buffers
  double best = 1e30;
  for (int r = 0; r < repetitions; ++r) {
    const auto start = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

float sum_on_threads(const Eigen::VectorXf& data, int threads) {
  if (threads == 1) return data.sum();
  float parts[2] = {0, 0};
  const Eigen::Index half = data.size() / 2;
#pragma omp parallel for num_threads(threads) schedule(static, 1)
  for (int part = 0; part < 2; ++part) parts[part] = data.segment(part * half, half).sum();
  return parts[0] + parts[1];
}

double read_bandwidth(int threads) {
  const Eigen::VectorXf data = Eigen::VectorXf::Random(kBandwidthFloats);
  volatile float sink = 0;
  const double seconds = best_seconds([&] { sink = sum_on_threads(data, threads); }, 8);
  return double(kBandwidthFloats) * sizeof(float) / seconds / 1e9;
}

MachineLimits measure() {
  MachineLimits limits;
  GemmOperands g;
  for (const auto& lib : all_libraries()) {
    const double one = gemm_flops() / best_seconds([&] { gemm_on_threads(lib, g, 1); }, 5) / 1e9;
    const double two = gemm_flops() / best_seconds([&] { gemm_on_threads(lib, g, 2); }, 5) / 1e9;
    if (one > limits.sgemm_1_thread) {
      limits.sgemm_1_thread = one;
      limits.best_1_thread = lib.name;
    }
    limits.sgemm_2_threads = std::max(limits.sgemm_2_threads, two);
  }
  limits.read_gb_per_s_1 = read_bandwidth(1);
  limits.read_gb_per_s_2 = read_bandwidth(2);
  return limits;
}

// The limits as rows of their own: sgemm_1024/<library>/threads:T, read_123MB/threads:T.
void sgemm_row(benchmark::State& state, const Library& lib, int threads) {
  GemmOperands g;
  for (auto _ : state) {
    gemm_on_threads(lib, g, threads);
    benchmark::DoNotOptimize(g.C.data());
  }
  state.counters["GFLOP/s"] = benchmark::Counter(gemm_flops() * double(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

void read_row(benchmark::State& state, int threads) {
  const Eigen::VectorXf data = Eigen::VectorXf::Random(kBandwidthFloats);
  for (auto _ : state) benchmark::DoNotOptimize(sum_on_threads(data, threads));
  state.counters["GB/s"] = benchmark::Counter(double(kBandwidthFloats) * sizeof(float) * double(state.iterations()) / 1e9,
                                              benchmark::Counter::kIsRate);
}

const bool registered = [] {
  for (const auto& lib : all_libraries()) {
    for (int threads : {1, 2}) {
      benchmark::RegisterBenchmark(("limit_sgemm_1024/" + lib.name + "/threads:" + std::to_string(threads)).c_str(),
                                   [&lib, threads](benchmark::State& s) { sgemm_row(s, lib, threads); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
  for (int threads : {1, 2}) {
    benchmark::RegisterBenchmark(("limit_read_123MB/threads:" + std::to_string(threads)).c_str(),
                                 [threads](benchmark::State& s) { read_row(s, threads); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  return true;
}();

}  // namespace

const MachineLimits& machine_limits() {
  static const MachineLimits limits = measure();
  return limits;
}

void report_against_limits(benchmark::State& state, double flops_per_step, double bytes_per_step, int threads) {
  const MachineLimits& limits = machine_limits();
  const double iterations = double(state.iterations());
  const double peak = threads == 1 ? limits.sgemm_1_thread : limits.sgemm_2_threads;
  const double bandwidth = threads == 1 ? limits.read_gb_per_s_1 : limits.read_gb_per_s_2;
  state.counters["GFLOP/s"] = benchmark::Counter(flops_per_step * iterations / 1e9, benchmark::Counter::kIsRate);
  // Rates divided by a constant: "%sgemm" = 100 · (GFLOP/s) / peak, "%bw" = 100 · (GB read/s) / bandwidth.
  state.counters["%sgemm"] = benchmark::Counter(100.0 * flops_per_step * iterations / 1e9 / peak, benchmark::Counter::kIsRate);
  state.counters["MB/step"] = bytes_per_step / 1e6;
  state.counters["%bw"] =
      benchmark::Counter(100.0 * bytes_per_step * iterations / 1e9 / bandwidth, benchmark::Counter::kIsRate);
}

}  // namespace featurelab::bench

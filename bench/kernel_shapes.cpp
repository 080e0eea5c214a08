// Eigen's product kernel against Debian's serial BLIS at the shapes featurelab's models multiply, in
// the two layouts of featurelab/parallel_product.hpp (row-major float, as featurelab::Mat):
//   xwt  Z (m×n) = X (m×k) · Wᵀ, W n×k: the forward pre-activations
//   gtx  ∇W (m×n) = Gᵀ · X, G k×m, X k×n: the first layer's gradient
// one thread, one call per product, in float whatever the build's scalar (sgemm is the yardstick). These rows are where -DFEATURELAB_BLAS=blis takes its thresholds
// from (parallel_product.hpp's blas_block): rows kernel_shape/<layout>/<m>x<k>x<n>/<kernel>. In a float build, the
// kernel `narrow` is std two-layer's unpacked products (two_layer_narrow_products.hpp) at the shapes with at most 16
// units where its fused step uses them, and `tiled` the SDK's register-tiled products (featurelab/tiled_products.hpp)
// that midpoint-mixup's patch network (inner dimension d = 20) and fourier-icl's transformer (widths 64 and 128, 128
// token rows a shard) multiply with.
#include "two_layer_narrow_products.hpp"

#include <featurelab/tiled_products.hpp>
#include <featurelab/types.hpp>

#include <Eigen/Core>

#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <string>
#include <type_traits>

namespace {

using FloatMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;  // featurelab::Mat in a float build
using CblasSgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;  // cblas.h: CblasRowMajor, CblasNoTrans, CblasTrans

CblasSgemm blis_sgemm() {
  static const CblasSgemm gemm = [] {
    const std::string file = std::string("/usr/lib/") + FEATURELAB_MULTIARCH + "/blis-serial/libblis.so.4";
    void* handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    return handle ? reinterpret_cast<CblasSgemm>(::dlsym(handle, "cblas_sgemm")) : nullptr;
  }();
  return gemm;
}

void product(benchmark::State& state, bool gradient_layout, bool blis, int m, int k, int n) {
  CblasSgemm gemm = blis_sgemm();
  if (blis && !gemm) {
    state.SkipWithError("Debian's libblis4-serial is not installed");
    return;
  }
  // xwt: A = X (m×k), B = W (n×k) used transposed; gtx: A = G (k×m) used transposed, B = X (k×n).
  const FloatMat A = gradient_layout ? FloatMat::Random(k, m) : FloatMat::Random(m, k);
  const FloatMat B = gradient_layout ? FloatMat::Random(k, n) : FloatMat::Random(n, k);
  FloatMat C(m, n);
  for (auto _ : state) {
    if (blis && gradient_layout) {
      gemm(kRowMajor, kTrans, kNoTrans, m, n, k, 1.0f, A.data(), m, B.data(), n, 0.0f, C.data(), n);
    } else if (blis) {
      gemm(kRowMajor, kNoTrans, kTrans, m, n, k, 1.0f, A.data(), k, B.data(), k, 0.0f, C.data(), n);
    } else if (gradient_layout) {
      C.noalias() = A.transpose() * B;
    } else {
      C.noalias() = A * B.transpose();
    }
    benchmark::DoNotOptimize(C.data());
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(2.0 * m * double(k) * n * double(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

// The same products by two-layer's narrow kernels: xwt with n <= 16 units, gtx with m <= 16 (accumulating).
void narrow_product(benchmark::State& state, bool gradient_layout, int m, int k, int n) {
  using featurelab::std_pack::narrow::add_transpose_times;
  using featurelab::std_pack::narrow::times_transpose;
  using featurelab::Mat;  // the build's scalar: the rows are registered in a float build only
  const Mat A = gradient_layout ? Mat::Random(k, m) : Mat::Random(m, k);
  const Mat B = gradient_layout ? Mat::Random(k, n) : Mat::Random(n, k);
  Mat C = Mat::Zero(m, n);
  for (auto _ : state) {
    if (gradient_layout) {
      add_transpose_times(A.data(), k, m, B.data(), n, C.data());
    } else {
      times_transpose(A.data(), m, k, B.data(), n, C.data());
    }
    benchmark::DoNotOptimize(C.data());
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(2.0 * m * double(k) * n * double(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

// The same products by the register-tiled kernels: xwt as Z = X·Wᵀ with Wᵀ stored (d × ldw, padded to whole
// strips), gtx as ∇Wᵀ += Xᵀ·G (accumulating), as the patch network's fused step and the transformer call them.
void tiled_product(benchmark::State& state, bool gradient_layout, int m, int k, int n) {
  namespace tiled = featurelab::tiled_products;
  using featurelab::Mat;
  // xwt: rows = m, d = k, km = n; gtx: km = m, rows = k, d = n.
  const int rows = gradient_layout ? k : m, dim = gradient_layout ? n : k, km = gradient_layout ? m : n;
  const featurelab::Index ldw = tiled::padded_width(km);
  const Mat X = Mat::Random(rows, dim);
  Mat Wt = Mat::Zero(dim, ldw), G = Mat::Zero(rows, ldw), C = Mat::Zero(gradient_layout ? dim : rows, ldw);
  Wt.leftCols(km) = Mat::Random(dim, km);
  G.leftCols(km) = Mat::Random(rows, km);
  for (auto _ : state) {
    if (gradient_layout) {
      tiled::add_transpose_times(X.data(), dim, rows, dim, G.data(), ldw, C.data(), ldw, ldw);
    } else {
      tiled::times<false>(X.data(), dim, rows, dim, Wt.data(), ldw, C.data(), ldw, ldw);
    }
    benchmark::DoNotOptimize(C.data());
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(2.0 * m * double(k) * n * double(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

// m × k × n: Frei et al.'s Figure 1 (k = 2), the patch network (k = 20, and its gradient), the transformer
// (a shard's 128 token rows at widths 64 and 128, and its weights' gradients), two-layer widths around the
// thresholds, feature averaging's E1 (m = 10 outputs), Fashion-MNIST's 1568 → 256 layer, feature emergence's
// parity (500 → 600).
constexpr int kShapes[][3] = {{5000, 2, 500}, {256, 20, 100}, {100, 256, 20}, {256, 64, 64}, {64, 64, 128},
                              {128, 64, 64}, {128, 64, 128}, {128, 128, 64}, {64, 128, 64}, {64, 128, 128},
                              {128, 96, 128}, {128, 128, 128}, {32, 256, 32}, {32, 3072, 10}, {10, 32, 3072},
                              {750, 1568, 256}, {256, 750, 1568}, {1000, 500, 600}, {600, 1000, 500}};

const bool registered = [] {
  for (const auto& s : kShapes) {
    for (bool gradient_layout : {false, true}) {
      for (bool blis : {false, true}) {
        const std::string name = std::string("kernel_shape/") + (gradient_layout ? "gtx/" : "xwt/") + std::to_string(s[0]) + "x" +
                                 std::to_string(s[1]) + "x" + std::to_string(s[2]) + (blis ? "/blis-serial" : "/eigen");
        const int m = s[0], k = s[1], n = s[2];
        benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) { product(st, gradient_layout, blis, m, k, n); })
            ->Unit(benchmark::kMicrosecond);
      }
      // The tiled rows: the patch network's (inner d = 20) and the transformer's (128 token rows).
      const int token_rows = gradient_layout ? s[1] : s[0];  // gtx sums over its k rows
      const bool patch_shape = (gradient_layout ? s[2] : s[1]) == 20, transformer_shape = token_rows == 128 && s[1] <= 128;
      if (std::is_same_v<featurelab::Scalar, float> && (patch_shape || transformer_shape)) {
        const std::string name = std::string("kernel_shape/") + (gradient_layout ? "gtx/" : "xwt/") + std::to_string(s[0]) + "x" +
                                 std::to_string(s[1]) + "x" + std::to_string(s[2]) + "/tiled";
        const int m = s[0], k = s[1], n = s[2];
        benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) { tiled_product(st, gradient_layout, m, k, n); })
            ->Unit(benchmark::kMicrosecond);
      }
      const bool narrow = std::is_same_v<featurelab::Scalar, float> && (gradient_layout ? s[0] : s[2]) <= 16;
      if (!narrow) continue;
      const std::string name = std::string("kernel_shape/") + (gradient_layout ? "gtx/" : "xwt/") + std::to_string(s[0]) + "x" +
                               std::to_string(s[1]) + "x" + std::to_string(s[2]) + "/narrow";
      const int m = s[0], k = s[1], n = s[2];
      benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) { narrow_product(st, gradient_layout, m, k, n); })
          ->Unit(benchmark::kMicrosecond);
    }
  }
  return true;
}();

}  // namespace

// One pass of the readout's dual coordinate descent (readout_solver.hpp), with the margins of several
// samples computed at once. Compiled with -ffp-contract=off (CMakeLists.txt), so that every sum is the
// one-sample loop's bit for bit: a multiply-add is fused only where written as std::fma.
#include "readout_solver.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace featurelab::feature_emergence_pack {

namespace {

// ⟨h_r, a⟩ for K rows at once. Each row's sum runs in kLanes interleaved partial sums (entry j into
// lane j mod kLanes), added in a fixed tree at the end: the same order for a row whatever K and wherever
// the row sits in a window, so the margins a window computes ahead are the one-sample loop's bit for bit.
// The lanes are what the compiler turns into one vector of adds; one sequential sum per row waited on
// its previous add at every entry (600 dependent adds a row; the epoch was half of a readout job).
constexpr int kLanes = 8;  // the final tree below adds exactly 8
using Lanes = Eigen::Array<double, kLanes, 1>;

template <int K>
void row_dots(const Scalar* const* rows, const double* a, Index m, double* out) {
  Lanes sum[K];
  for (int k = 0; k < K; ++k) sum[k].setZero();
  const Index full = m - m % kLanes;
  for (Index j = 0; j < full; j += kLanes) {
    const Lanes aj = Lanes::Map(a + j);
    for (int k = 0; k < K; ++k) {
      sum[k] += Eigen::Array<Scalar, kLanes, 1>::Map(rows[k] + j).template cast<double>() * aj;
    }
  }
  for (int k = 0; k < K; ++k) {
    for (Index j = full; j < m; ++j) sum[k](j - full) += static_cast<double>(rows[k][j]) * a[j];
    const Lanes& s = sum[k];
    out[k] = ((s(0) + s(1)) + (s(2) + s(3))) + ((s(4) + s(5)) + (s(6) + s(7)));
  }
}

// a += step · h, in lanes of kLanes entries (a product and an add an entry, as this file fuses no multiply-add
// but the std::fma it writes).
void add_row(double step, const Scalar* h, Index m, double* a) {
  const Index full = m - m % kLanes;
  for (Index j = 0; j < full; j += kLanes) {
    Lanes::Map(a + j) += step * Eigen::Array<Scalar, kLanes, 1>::Map(h + j).template cast<double>();
  }
  for (Index j = full; j < m; ++j) a[j] += step * static_cast<double>(h[j]);
}

}  // namespace

void HingeReadout::epoch(Rng& rng) {
  const std::vector<Index> order = rng.permutation(H_.rows());
  const std::size_t n = order.size();
  const Index m = H_.cols();
  // Speculation: the margins of the next `window` samples are computed together against the current
  // a; they stay exact until a sample changes a, and the pass goes on after that sample. Near the
  // optimum most samples leave their α (and a) as it is, so the window grows to max_window_; after a
  // change it starts again at 1.
  std::size_t next = 0, window = 1;
  std::array<const Scalar*, kMaxWindow> rows{};
  std::array<double, kMaxWindow> dots{};
  while (next < n) {
    const std::size_t count = std::min(window, n - next);
    for (std::size_t k = 0; k < window; ++k) rows[k] = H_.row(order[next + std::min(k, count - 1)]).data();
    switch (window) {
      case 1: row_dots<1>(rows.data(), a_.data(), m, dots.data()); break;
      case 2: row_dots<2>(rows.data(), a_.data(), m, dots.data()); break;
      case 4: row_dots<4>(rows.data(), a_.data(), m, dots.data()); break;
      default: row_dots<kMaxWindow>(rows.data(), a_.data(), m, dots.data()); break;
    }
    bool changed = false;
    std::size_t k = 0;
    while (k < count && !changed) {
      const Index i = order[next + k++];
      if (q_(i) <= 0) continue;  // a sample no neuron sees cannot be served by the readout
      const double g = std::fma(y_(i), dots[k - 1], -1.0);  // y_i⟨a, h_i⟩ − 1
      const double updated = std::clamp(alpha_(i) - g / q_(i), 0.0, c_);
      const double delta = updated - alpha_(i);
      if (delta != 0) {
        alpha_(i) = updated;
        const double step = delta * y_(i);
        add_row(step, H_.row(i).data(), m, a_.data());
        changed = true;
      }
    }
    next += k;
    window = changed ? 1 : std::min(2 * window, max_window_);
  }
}

}  // namespace featurelab::feature_emergence_pack

// One pass of the readout's dual coordinate descent (readout_solver.hpp), with the margins of several
// samples computed at once. Compiled with -ffp-contract=off (CMakeLists.txt), so that every sum is the
// one-sample loop's bit for bit: a multiply-add is fused only where written as std::fma.
#include "readout_solver.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace featurelab::feature_emergence_pack {

namespace {

// ⟨h_r, a⟩ for K rows at once: each a sequential sum in column order, the product rounded before the
// add (this file is compiled without FMA contraction), exactly as the one-row loop sums; the K
// independent sums keep the adder busy where one sum waits on its previous add.
template <int K>
void row_dots(const Scalar* const* rows, const double* a, Index m, double* out) {
  double sum[K];
  for (int k = 0; k < K; ++k) sum[k] = static_cast<double>(rows[k][0]) * a[0];
  for (Index j = 1; j < m; ++j) {
    for (int k = 0; k < K; ++k) sum[k] += static_cast<double>(rows[k][j]) * a[j];
  }
  for (int k = 0; k < K; ++k) out[k] = sum[k];
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
        const Scalar* h = H_.row(i).data();
        for (Index j = 0; j < m; ++j) a_(j) = std::fma(step, static_cast<double>(h[j]), a_(j));
        changed = true;
      }
    }
    next += k;
    window = changed ? 1 : std::min(2 * window, max_window_);
  }
}

}  // namespace featurelab::feature_emergence_pack

// Elementwise; the smoothed form evaluates two normal CDFs and densities per entry, in packets.
#include "truncated_activation.hpp"

#include <featurelab/threads.hpp>

#include <unsupported/Eigen/SpecialFunctions>

#include <algorithm>

namespace featurelab::feature_emergence_pack {

namespace {
// Entries go through σ_s in fixed blocks (a short last block padded), so every entry takes Eigen's packet
// path of erf and exp and gets the same bits wherever it sits in Z and however Z was cut into batches.
// libm's scalar erfc and exp were a third of a parity job (two of each an entry, at every smoothed
// evaluation of 60000 points × 600 units); float's vectorized erf is accurate to a few ulp, which Φ's
// absolute error (≤ 1e-7) inherits.
constexpr Index kBlock = 16;
using Block = Eigen::Array<Scalar, kBlock, 1>;

constexpr Scalar kInvSqrt2 = Scalar(0.70710678118654752440);
constexpr Scalar kInvSqrt2Pi = Scalar(0.39894228040143267794);

// σ_s and σ_s′ of one block; s > 0.
void smoothed_block(const Block& z, Scalar s, Block& h, Block& dh) {
  const Block u0 = z / s, u1 = (z - Scalar(1)) / s;
  const Block cdf0 = Scalar(0.5) * (Scalar(1) + (u0 * kInvSqrt2).erf());
  const Block cdf1 = Scalar(0.5) * (Scalar(1) + (u1 * kInvSqrt2).erf());
  const Block pdf0 = kInvSqrt2Pi * (Scalar(-0.5) * u0.square()).exp();
  const Block pdf1 = kInvSqrt2Pi * (Scalar(-0.5) * u1.square()).exp();
  h = (z * cdf0 + s * pdf0) - ((z - Scalar(1)) * cdf1 + s * pdf1);
  dh = cdf0 - cdf1;
}
}  // namespace

// Rows in the fixed chunks of featurelab/threads.hpp, on the job's threads: each entry is computed alone, so the
// bits do not depend on the threads (the accuracy probe's forward pass over 60,000 rows spent most of its time
// here on one thread).
void truncated_relu(ConstMatRef Z, double smoothing, MatRef H, MatRef dH) {
  if (smoothing <= 0) {
    // One pass a row, σ and σ′ together, which the compiler vectorizes (Eigen's boolean mask was a scalar loop).
    parallel_over_chunks(Z.rows(), [&](Index, Index begin, Index end) {
      for (Index r = begin; r < end; ++r) {
        const Scalar* z = Z.row(r).data();
        Scalar* h = H.row(r).data();
        Scalar* dh = dH.row(r).data();
        for (Index c = 0; c < Z.cols(); ++c) {
          h[c] = std::min(std::max(z[c], Scalar(0)), Scalar(1));
          dh[c] = z[c] > Scalar(0) && z[c] < Scalar(1) ? Scalar(1) : Scalar(0);
        }
      }
    }, Z.size());
    return;
  }
  const auto s = static_cast<Scalar>(smoothing);
  parallel_over_chunks(Z.rows(), [&](Index, Index begin, Index end) {
    Block z, h, dh;
    for (Index r = begin; r < end; ++r) {
      for (Index c = 0; c < Z.cols(); c += kBlock) {
        const Index n = std::min(kBlock, Z.cols() - c);
        z.setZero();
        z.head(n) = Z.row(r).segment(c, n).transpose().array();
        smoothed_block(z, s, h, dh);
        H.row(r).segment(c, n) = h.head(n).transpose().matrix();
        dH.row(r).segment(c, n) = dh.head(n).transpose().matrix();
      }
    }
  }, Z.size());
}

void declare_network_schema(Schema& s) {
  s.integer("width", 600, "hidden units 2m (the paper's m is half of it); even").min(2);
  s.real("init_w", 0.2, "σ_w (the chapter: 1/k)").min(0);
  s.real("init_b", 0.04, "σ_b (1/k²)").min(0);
  s.real("init_a", 4.0, "σ_a (σ̃²/(γk²))").min(0);
  s.real("smoothing", 0.0, "s: std of the Gaussian noise smoothing the activation").min(0);
}

void symmetric_init(Rng& rng, double sigma_w, double sigma_b, double sigma_a, MatRef W, MatRef b, MatRef a) {
  const Index m = W.rows() / 2;
  rng.fill_normal(W.topRows(m), sigma_w);
  W.bottomRows(m) = W.topRows(m);
  rng.fill_normal(b.leftCols(m), sigma_b);
  b.rightCols(m) = b.leftCols(m);
  rng.fill_normal(a.leftCols(m), sigma_a);
  a.rightCols(m) = -a.leftCols(m);
}

}  // namespace featurelab::feature_emergence_pack

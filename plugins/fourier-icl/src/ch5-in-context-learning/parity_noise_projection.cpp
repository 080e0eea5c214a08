// The projection reads the heads' weights.
#include "parity_noise_projection.hpp"
#include "parity_setting.hpp"

#include <featurelab/error.hpp>

#include <Eigen/SVD>

#include <algorithm>

namespace featurelab::fourier_icl_pack {

Schema ParityNoiseProjection::schema() {
  Schema s;
  s.integer("samples", 100000, "Monte Carlo draws of Ξ").min(1);
  s.integer("shots", 64, "M: Ξ averages M uniform ±1 vectors").min(1);
  return s;
}

ParityNoiseProjection::ParityNoiseProjection(const Params& params, Context&)
    : samples_(params.integer("samples")), shots_(params.integer("shots")) {}

void ParityNoiseProjection::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  const ParitySetting s = parity_setting(in, who);
  if (!in.model.find_block("W") || in.model.find_block("W")->cols != s.d * s.d) {
    throw Error(who + " reads block W (heads × d²) of multihead-relu-attention");
  }
  const Index d = s.d, m = in.model.find_block("W")->rows;
  const MatD W = in.model.block("W").cast<double>();
  MatD D(d, m);
  double largest = 0, offdiag = 0;
  for (Index i = 0; i < m; ++i) {
    MatD Wi(d, d);
    for (Index r = 0; r < d; ++r) Wi.row(r) = W.row(i).segment(r * d, d);
    const MatD V = s.G.transpose() * Wi * s.G;
    D.col(i) = V.diagonal();
    largest = std::max(largest, V.cwiseAbs().maxCoeff());
    offdiag = std::max(offdiag, (V - MatD(V.diagonal().asDiagonal())).cwiseAbs().maxCoeff());
  }
  Eigen::JacobiSVD<MatD> svd(D, Eigen::ComputeThinU);
  const VecD sv = svd.singularValues();
  const Index rank = (sv.array() > 1e-9 * std::max(sv.maxCoeff(), 1e-300)).count();
  const MatD basis = svd.matrixU().leftCols(rank);  // orthonormal basis of span(D)
  Rng rng(29);
  double energy = 0;
  VecD xi(d);
  for (Index t = 0; t < samples_; ++t) {
    xi.setZero();
    for (Index l = 0; l < shots_; ++l) {
      for (Index c = 0; c < d; ++c) xi(c) += rng.bernoulli(0.5) ? 1.0 : -1.0;
    }
    xi /= static_cast<double>(shots_);
    energy += (basis.transpose() * xi).squaredNorm();
  }
  out.scalar("rank", static_cast<double>(rank));
  out.scalar("energy_exact", static_cast<double>(rank) / static_cast<double>(shots_));
  out.scalar("energy_mc", energy / static_cast<double>(samples_));
  out.scalar("offdiag", largest > 0 ? offdiag / largest : 0);
}

}  // namespace featurelab::fourier_icl_pack

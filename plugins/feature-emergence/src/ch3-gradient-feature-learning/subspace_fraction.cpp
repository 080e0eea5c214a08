// Q from a QR of the feature's rows, then W Q (N×r) for the energies and one d×d eigenproblem of WᵀW
// for the principal angles, in double.
#include "subspace_fraction.hpp"

#include <featurelab/error.hpp>
#include <featurelab/linalg.hpp>

#include <Eigen/QR>

#include <algorithm>
#include <vector>

namespace featurelab::feature_emergence_pack {

Schema SubspaceFraction::schema() {
  Schema s;
  s.string("feature", "directions", "the distribution's feature whose rows span S (orthonormalised here)");
  return s;
}

SubspaceFraction::SubspaceFraction(const Params& params, Context&) : feature_(params.str("feature")) {}

void SubspaceFraction::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  if (!in.model.find_block("W")) {
    std::string names;
    for (const auto& blk : in.model.blocks()) names += (names.empty() ? "" : ", ") + blk.name;
    throw Error(who + " reads the neurons from block \"W\" (width×d); this model has: " + names);
  }
  const Mat& F = require_feature(in.features, who, feature_, "set probe.feature to one of them");
  const MatD W = in.model.block("W").cast<double>();
  const Index N = W.rows(), d = W.cols(), r = F.rows();
  if (F.cols() != d) {
    throw Error(who + ": feature \"" + feature_ + "\" has rows of length " + std::to_string(F.cols()) + " but the neurons " +
                std::to_string(d));
  }
  if (r == 0 || r > d) throw Error(who + ": feature \"" + feature_ + "\" needs 1 to d rows, has " + std::to_string(r));
  Eigen::HouseholderQR<MatD> qr(F.cast<double>().transpose());  // d×r
  const MatD Q = qr.householderQ() * MatD::Identity(d, r);
  const MatD WQ = W * Q;  // N×r: the coordinates of every neuron in S
  const double total = W.squaredNorm();
  out.scalar("fraction", total > 0 ? WQ.squaredNorm() / total : 0.0);
  std::vector<double> shares;
  for (Index i = 0; i < N; ++i) {
    const double n2 = W.row(i).squaredNorm();
    if (n2 > 0) shares.push_back(WQ.row(i).squaredNorm() / n2);
  }
  double median = 0;
  if (!shares.empty()) {
    const auto mid = shares.begin() + static_cast<long>(shares.size() / 2);
    std::nth_element(shares.begin(), mid, shares.end());
    median = *mid;
  }
  out.scalar("neuron_median", median);
  // The top-r eigenvectors of WᵀW (ascending order: the last r columns) against Q: the singular values
  // of QᵀV are the cosines of the principal angles.
  const SymmetricEigen eig = symmetric_eigen(W.transpose() * W);
  const MatD V = eig.vectors.rightCols(r);
  const Eigen::VectorXd cosines = singular_values(Q.transpose() * V);
  out.scalar("angle_cos_min", total > 0 ? std::min(1.0, cosines.minCoeff()) : 0.0);
  out.scalar("chance", static_cast<double>(r) / static_cast<double>(d));
}

}  // namespace featurelab::feature_emergence_pack

// The contrastive objective of ch. 7 on a batch of representations in the view layout of `resample-spurious`
// (K anchors, K positives, N negatives; roles in column 0 of T):
//     L = (1/K) Σ_k ℓ(t_k),   t_k = φ(x_k)ᵀ(φ(x⁺_k) − n_k)                                       (eq. 7.1, F.38)
// with the negative term n_k, one of
//   expected    n_k = E φ(x⁻) = 0: the theory's loss F.38 (zero-mean data, φ linear); negatives rows unused
//   batch-mean  n_k = the mean of φ over the N negatives (the sampled estimate of E φ(x⁻); shared by all anchors)
//   single      n_k = φ(x⁻_k), one negative per anchor (eq. 7.1 itself; N = K)
// and ℓ logistic, log(1 + e^{−t}) (the chapter's choice), or linear, −t (Thm 7.1's PCA identity; unbounded below).
// Gradient with respect to every row of F (all three branches; the negatives only for batch-mean / single):
//   dL/dφ(x_k) = ℓ′(t_k)(φ(x⁺_k) − n_k)/K,   dL/dφ(x⁺_k) = ℓ′(t_k) φ(x_k)/K,   dL/dn_k = −ℓ′(t_k) φ(x_k)/K.
// For linear φ and the expected negative this is ∂/∂W = (1/K) Σ ℓ′(t) W(x x⁺ᵀ + x⁺ xᵀ) (eq. F.38's loss).
#pragma once

#include <featurelab/dataset.hpp>
#include <featurelab/params.hpp>

#include <string>

namespace featurelab::representation_theory_pack {

class ContrastiveTerm {
 public:
  // The schema entries `ell` and `negatives` (shared by the losses that contain this term).
  static void add_schema(featurelab::Schema& schema);
  ContrastiveTerm(const featurelab::Params& params, std::string who);

  // Reads the roles; returns K (and checks N against the negatives mode). Throws with the fix.
  featurelab::Index layout(const featurelab::Batch& batch) const;
  // F: n×k representations of the batch rows -> the loss; with dF (n×k, presized) its gradient, written.
  featurelab::Scalar value(featurelab::ConstMatRef F, featurelab::Index K, featurelab::MatRef* dF);

  bool linear() const { return linear_; }
  const std::string& negatives() const { return negatives_; }

 private:
  std::string who_;
  bool linear_;
  std::string negatives_;
  featurelab::Mat D_;       // K×k: φ(x⁺_k) − n_k (reused)
  featurelab::Vec t_, g_;   // K: t_k and ℓ′(t_k)/K
  featurelab::RowVec mean_; // 1×k: the negatives' mean (batch-mean)
};

}  // namespace featurelab::representation_theory_pack

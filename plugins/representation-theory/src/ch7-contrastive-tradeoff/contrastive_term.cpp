// Row-wise dot products and a few whole-batch array expressions; ℓ evaluated stably (softplus).
#include "contrastive_term.hpp"

#include <featurelab/error.hpp>
#include <featurelab/views.hpp>

#include <cmath>

namespace featurelab::representation_theory_pack {

void ContrastiveTerm::add_schema(Schema& s) {
  s.choice("ell", "logistic", {"logistic", "linear"},
           "ℓ: logistic log(1 + e^{−t}) (the chapter's), or linear −t (Thm 7.1's PCA identity; unbounded below: only with "
           "the trainer's norm bounds)");
  s.choice("negatives", "expected", {"expected", "batch-mean", "single"},
           "the negative term: expected (E φ(x⁻) = 0, the theory's F.38), batch-mean (the mean of φ over the batch's "
           "negatives), single (one negative per anchor, eq. 7.1; augment positives = K and batch = 2K)");
}

ContrastiveTerm::ContrastiveTerm(const Params& params, std::string who)
    : who_(std::move(who)), linear_(params.str("ell") == "linear"), negatives_(params.str("negatives")) {}

Index ContrastiveTerm::layout(const Batch& batch) const {
  const std::string fix =
      "; put [[augment]] use = \"resample-spurious\" in the pipeline: it writes K anchors, K positives and N negatives "
      "and marks their roles";
  if (!batch.has_targets()) throw Error(who_ + ": the batch carries no view roles" + fix);
  const Index K = view_pairs(batch);
  if (K < 1) throw Error(who_ + ": the batch's rows are not K anchors, K positives and N negatives" + fix);
  const Index N = batch.n - 2 * K;
  if (negatives_ == "single" && N != K) {
    throw Error(who_ + ": negatives = \"single\" pairs anchor k with negative k, so it needs N = K negatives; got K = " +
                std::to_string(K) + ", N = " + std::to_string(N) + " (set augment positives = K and the batch to 2K)");
  }
  if (negatives_ == "batch-mean" && N < 1) {
    throw Error(who_ + ": negatives = \"batch-mean\" averages φ over the batch's negatives, and it has none (set "
                "augment positives below the batch size)");
  }
  return K;
}

Scalar ContrastiveTerm::value(ConstMatRef F, Index K, MatRef* dF) {
  const Index n = F.rows(), N = n - 2 * K;
  const auto A = F.topRows(K);
  const auto P = F.middleRows(K, K);
  D_ = P;
  if (negatives_ == "batch-mean") {
    mean_ = F.bottomRows(N).colwise().mean();
    D_.rowwise() -= mean_;
  } else if (negatives_ == "single") {
    D_ -= F.bottomRows(N);
  }
  t_ = (A.array() * D_.array()).rowwise().sum().matrix();
  const Scalar inv_k = Scalar(1) / static_cast<Scalar>(K);
  Scalar loss;
  if (linear_) {
    loss = -t_.sum() * inv_k;
    if (dF) g_.setConstant(K, -inv_k);
  } else {
    // ℓ(t) = softplus(−t) = max(−t, 0) + log(1 + e^{−|t|});  ℓ′(t) = −1/(1 + e^{t}).
    loss = ((-t_.array()).max(Scalar(0)) + (-t_.array().abs()).exp().log1p()).sum() * inv_k;
    if (dF) g_ = (-inv_k / (Scalar(1) + t_.array().exp())).matrix();
  }
  if (!dF) return loss;
  MatRef out = *dF;
  out.setZero();
  out.topRows(K) = D_.array().colwise() * g_.array();
  out.middleRows(K, K) = A.array().colwise() * g_.array();
  if (negatives_ == "batch-mean") {
    mean_.noalias() = g_.transpose() * A;  // the negatives' mean gets −Σ_k ℓ′_k φ(x_k)/K, split over N rows
    out.bottomRows(N).rowwise() = mean_ * (Scalar(-1) / static_cast<Scalar>(N));
  } else if (negatives_ == "single") {
    out.bottomRows(N) = -(A.array().colwise() * g_.array());
  }
  return loss;
}

}  // namespace featurelab::representation_theory_pack

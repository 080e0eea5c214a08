// Regularizer `nuclear-norm`, a penalty any pipeline adds to any loss with a [[regularizer]] table:
// λ·‖F‖_* / N on the feature matrix F = hook(X) (N×k) of the step's batch (ERM-NU, Shi 2024 eq. 6.3, with the
// official code's conventions as parameters: the division by the batch size N and a warm-up before it switches
// on). Subgradient U₊V₊ᵀ over the singular values above tol·σ_max, pushed into the model by Model::hook_backward.
// Where F is float (the default build) the singular values come from the eigen-decomposition of the smaller Gram
// matrix (FᵀF or FFᵀ) in double: a GEMM and a min(N,k)² symmetric eigensolver per step instead of an SVD of F,
// which made a 500×300 batch 20× slower. The Gram matrix resolves σ down to √ε_double·σ_max ≈ 1.5e-8·σ_max, below
// the float F's own rounding (6e-8·σ_max), so nothing is lost. Where F is double (FEATURELAB_DOUBLE) the Gram
// matrix would throw away half of F's digits (its subgradient then agreed with finite differences to 2e-4 only):
// there the singular values come from an SVD of F itself (the SDK's JacobiSVD: Eigen's BDCSVD compiled here cost
// 38 s of the sanitized build).
#pragma once

#include <featurelab/regularizer.hpp>

#include <featurelab/linalg.hpp>

#include <map>
#include <string>

namespace featurelab::std_pack {

class NuclearNormRegularizer : public Regularizer {
 public:
  static constexpr Doc kDoc =
      "λ·‖F‖_*/N on a hook point's feature matrix of the batch (ERM-NU, Shi 2024 eq. 6.3; official code: "
      "divided by N, on after a warm-up); subgradient U₊V₊ᵀ through Model::hook_backward.";
  static Schema schema();
  // The hook point of std two-layer, the contract test's model: its pre-activations, linear in W.
  static std::map<std::string, Value> test_params() { return {{"hook", std::string("hidden.pre")}}; }
  NuclearNormRegularizer(const Params& params, Context& context);
  void bind(Model& model) override;
  Scalar add_penalty(Model& model, const Batch& batch, Index step, VecRef grad) override;
  Scalar penalty(Model& model, const Batch& batch, Index step) override;

 private:
  bool active(Index step) const { return lambda_ > 0 && step >= warmup_; }
  // F = hook(X) in double and its singular values, those below the cut set to 0, by the route the scalar type
  // calls for; returns λ·Σσ / N (N = 1 without per_sample).
  double decompose(Model& model, ConstMatRef X);
  // The SVD route exists only in double builds: BDCSVD's instantiation alone took 50 s of a float build's compile.
  // dfeatures_ = scale·U₊V₊ᵀ (N×k) over the singular values above the cut, from the route's decomposition.
#ifdef FEATURELAB_SCALAR_DOUBLE
  void decompose_by_svd();  // double F: σ of an SVD of F, descending
  void subgradient_by_svd(double scale);
#else
  void decompose_by_gram();  // float F: σ = √λ of the smaller Gram matrix, ascending
  void subgradient_by_gram(double scale);
#endif

  double lambda_;
  std::string hook_;
  bool per_sample_;
  Index warmup_;
  double tol_;
  Mat features_;
  Eigen::MatrixXd features_d_;  // column-major double: the eigensolver's layout and precision
#ifdef FEATURELAB_SCALAR_DOUBLE
  ThinSvd svd_;
#else
  Eigen::MatrixXd gram_, projector_;
  SymmetricEigen eigen_;
  bool right_side_ = true;  // gram_ = FᵀF (k ≤ N) or FFᵀ
#endif
  Eigen::VectorXd sigma_;   // F's singular values, those below the cut 0: ascending (Gram) or descending (SVD)
  Index rank_ = 0;          // how many are above the cut
  Mat dfeatures_;
};

}  // namespace featurelab::std_pack

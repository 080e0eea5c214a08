// Regularizers: penalties any pipeline adds to any loss with [[regularizer]] tables.
//   l2            (λ/2)·‖θ_B‖²  over the named blocks B (all trainable blocks by default): ERM-ℓ2 of
//                 Shi 2024 eq. 6.4; unlike an optimizer's weight decay it is part of the objective.
//   l1            λ·‖θ_B‖₁, subgradient λ·sign(θ) (0 at 0): the convex relaxation of a support budget. A
//                 subgradient step only hovers around zero; for exact zeros use optimizer gd's `l1` (ISTA).
//   nuclear-norm  λ·‖F‖_* / N on the feature matrix F = hook(X) (N×k) of the step's batch (ERM-NU,
//                 Shi 2024 eq. 6.3, with the official code's conventions as parameters: the division by
//                 the batch size N and a warm-up before it switches on). Subgradient U₊V₊ᵀ over the
//                 singular values above tol·σ_max, pushed into the model by Model::hook_backward. The
//                 singular values come from the eigen-decomposition of the smaller Gram matrix (FᵀF or FFᵀ):
//                 a GEMM and a min(N,k)² symmetric eigensolver per step instead of an SVD of F, which made
//                 a 500×300 batch 20× slower; the price is that values below 1e-7·σ_max are not resolved.
#pragma once

#include <featurelab/regularizer.hpp>

#include <Eigen/Eigenvalues>

#include <string>
#include <utility>
#include <vector>

namespace featurelab::std_pack {

// The trainable blocks a weight penalty covers, as (offset, size) ranges of the parameter vector.
class BlockSelection {
 public:
  void bind(const Model& model, const std::vector<std::string>& names, const std::string& who);
  template <class F>
  void for_each(VecRef theta, VecRef grad, F f) const {
    for (const auto& [offset, size] : ranges_) f(theta.segment(offset, size), grad.segment(offset, size));
  }
  template <class F>
  void for_each(ConstVecRef theta, F f) const {
    for (const auto& [offset, size] : ranges_) f(theta.segment(offset, size));
  }

 private:
  std::vector<std::pair<Index, Index>> ranges_;
};

// What l2 and l1 share: λ, the blocks they cover (parameter `blocks`) and their check against the model.
class WeightPenalty : public Regularizer {
 public:
  static Schema schema();
  // λ = 0 (the default) would check nothing.
  static std::map<std::string, Value> test_params() { return {{"lambda", 0.1}}; }
  WeightPenalty(const Params& params, std::string name);
  void bind(Model& model) override { selection_.bind(model, blocks_, name_); }

 protected:
  double lambda_;
  BlockSelection selection_;

 private:
  std::vector<std::string> blocks_;
  std::string name_;
};

class L2Penalty : public WeightPenalty {
 public:
  static constexpr Doc kDoc =
      "(λ/2)·‖θ‖² over chosen parameter blocks, added to the loss (ERM-ℓ2, Shi 2024 eq. 6.4).";
  L2Penalty(const Params& params, Context&) : WeightPenalty(params, "l2") {}
  Scalar add_penalty(Model& model, const Batch& batch, Index step, VecRef grad) override;
  Scalar penalty(Model& model, const Batch& batch, Index step) override;
};

class L1Penalty : public WeightPenalty {
 public:
  static constexpr Doc kDoc =
      "λ·‖θ‖₁ over chosen parameter blocks, subgradient λ·sign(θ): the convex relaxation of a support budget.";
  L1Penalty(const Params& params, Context&) : WeightPenalty(params, "l1") {}
  Scalar add_penalty(Model& model, const Batch& batch, Index step, VecRef grad) override;
  Scalar penalty(Model& model, const Batch& batch, Index step) override;
};

class NuclearNormPenalty : public Regularizer {
 public:
  static constexpr Doc kDoc =
      "λ·‖F‖_*/N on a hook point's feature matrix of the batch (ERM-NU, Shi 2024 eq. 6.3; official code: "
      "divided by N, on after a warm-up); subgradient U₊V₊ᵀ through Model::hook_backward.";
  static Schema schema();
  // The hook point of std two-layer, the contract test's model: its pre-activations, linear in W.
  static std::map<std::string, Value> test_params() { return {{"hook", std::string("hidden.pre")}}; }
  NuclearNormPenalty(const Params& params, Context& context);
  void bind(Model& model) override;
  Scalar add_penalty(Model& model, const Batch& batch, Index step, VecRef grad) override;
  Scalar penalty(Model& model, const Batch& batch, Index step) override;

 private:
  bool active(Index step) const { return lambda_ > 0 && step >= warmup_; }
  // F = hook(X) in double and the eigen-decomposition of its smaller Gram matrix; returns λ·Σσ / N
  // (N = 1 without per_sample).
  double decompose(Model& model, ConstMatRef X);

  double lambda_;
  std::string hook_;
  bool per_sample_;
  Index warmup_;
  double tol_;
  Mat features_;
  Eigen::MatrixXd features_d_;  // column-major double: the eigensolver's layout and precision
  Eigen::MatrixXd gram_, projector_;
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen_;
  Eigen::VectorXd sigma_;  // singular values of F, ascending (the eigensolver's order)
  bool right_side_ = true;  // gram_ = FᵀF (k ≤ N) or FFᵀ
  Mat dfeatures_;
};

}  // namespace featurelab::std_pack

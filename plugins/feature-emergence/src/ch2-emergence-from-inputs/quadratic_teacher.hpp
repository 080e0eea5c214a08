// The teacher of Shi 2024 App. A.7.5 (Algorithm 3): FC(m), one hidden layer of m units with the quadratic
// activation, K softmax outputs,
//   f(x) = softmax(A (W x + b)²),   W: m×D,  b: m,  A: K×m   (the square elementwise),
// trained on the labelled digits L by cross-entropy plus the class-balance regularizer on the injected
// inputs U (Eq. A.289–A.291), with p_i = f(x̃_i) over the u = |U| injected inputs:
//   R = R1 + λ R2,   R1 = Σ_j p̄_j ln p̄_j,  p̄ = (1/u) Σ_i p_i   (negative entropy of the mean prediction:
//                    minimal when every class is predicted equally often on U),
//                    R2 = −(1/u) Σ_i Σ_j p_ij ln p_ij          (mean entropy: confident predictions on U).
// Loss = CE(L) + μ R(U); full-batch Adam. The dissertation gives neither λ, μ nor the optimiser.
// Single precision like the students; one job's products run on one thread, so its labels do not depend on
// the thread count.
#pragma once

#include <featurelab/rng.hpp>
#include <featurelab/types.hpp>

namespace featurelab::feature_emergence_pack {

struct TeacherSettings {
  Index width = 9;          // m (Algorithm 3's choice for MNIST: FC(9))
  Index steps = 300;        // full-batch Adam steps
  double lr = 0.01;         // Adam's step size
  double balance = 1.0;     // μ, the weight of R on U (0: train on L alone)
  double confidence = 1.0;  // λ, R2's weight inside R
};

struct TeacherFit {
  double train_accuracy = 0;  // on L
  double injected_balance = 0;  // min_j p̄_j · K on U after training (1: perfectly balanced)
};

// The teacher's parameters, or a gradient with respect to them.
struct TeacherParameters {
  Mat W;     // m×D
  Mat A;     // K×m
  RowVec b;  // 1×m
};

class QuadraticTeacher {
 public:
  // W ~ N(0, 1/D), A ~ N(0, 1/m), b = 0.
  QuadraticTeacher(Index dim, int classes, Index width, Rng& rng);
  // L = (X, y) with y in [0, classes); U: the injected inputs (may be empty when balance = 0).
  TeacherFit train(ConstMatRef X, const IVec& y, ConstMatRef U, const TeacherSettings& settings);
  // CE(L) + μ R(U) at the current parameters; with grad, also its gradient.
  double objective(ConstMatRef X, const IVec& y, ConstMatRef U, const TeacherSettings& settings,
                   TeacherParameters* grad) const;
  TeacherParameters& parameters() { return theta_; }
  // Class probabilities, n×K.
  Mat probabilities(ConstMatRef X) const;
  // argmax_j f(x)_j per row.
  IVec labels(ConstMatRef X) const;

 private:
  // pre = X Wᵀ + b (n×m), hidden = pre², returns the softmax probabilities (n×K).
  Mat forward(ConstMatRef X, Mat& pre, Mat& hidden) const;
  TeacherParameters theta_;
};

}  // namespace featurelab::feature_emergence_pack

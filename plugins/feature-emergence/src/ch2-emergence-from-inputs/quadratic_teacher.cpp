// Full-batch Adam on CE(L) + μ(R1 + λR2)(U), backpropagated by hand through the softmax, A and the square.
#include "quadratic_teacher.hpp"


#include <algorithm>
#include <cmath>

namespace featurelab::feature_emergence_pack {

namespace {

constexpr Scalar kTiny = Scalar(1e-12);  // inside the logarithms of probabilities

void softmax_rows(Mat& O) {
  for (Index i = 0; i < O.rows(); ++i) {
    O.row(i).array() -= O.row(i).maxCoeff();
    O.row(i) = O.row(i).array().exp().matrix();
    O.row(i) /= O.row(i).sum();
  }
}

// One Adam step (β = 0.9, 0.999) on a parameter block with its moments.
struct AdamBlock {
  Mat m, v;
  template <typename Block, typename Grad>
  void step(Block& param, const Grad& grad, double lr, Index t) {
    if (m.size() == 0) m = Mat::Zero(grad.rows(), grad.cols()), v = Mat::Zero(grad.rows(), grad.cols());
    m = Scalar(0.9) * m + Scalar(0.1) * grad;
    v = Scalar(0.999) * v + Scalar(0.001) * grad.cwiseAbs2();
    const double c1 = 1 - std::pow(0.9, static_cast<double>(t)), c2 = 1 - std::pow(0.999, static_cast<double>(t));
    param.array() -= static_cast<Scalar>(lr / c1) * m.array() / ((v.array() / static_cast<Scalar>(c2)).sqrt() + Scalar(1e-8));
  }
};

}  // namespace

QuadraticTeacher::QuadraticTeacher(Index dim, int classes, Index width, Rng& rng)
    : theta_{Mat(width, dim), Mat(classes, width), RowVec::Zero(width)} {
  rng.fill_normal(theta_.W, 1 / std::sqrt(static_cast<double>(dim)));
  rng.fill_normal(theta_.A, 1 / std::sqrt(static_cast<double>(width)));
}

Mat QuadraticTeacher::forward(ConstMatRef X, Mat& pre, Mat& hidden) const {
  pre.noalias() = X * theta_.W.transpose();
  pre.rowwise() += theta_.b;
  hidden = pre.cwiseAbs2();
  Mat P = hidden * theta_.A.transpose();
  softmax_rows(P);
  return P;
}

Mat QuadraticTeacher::probabilities(ConstMatRef X) const {
  Mat pre, hidden;
  return forward(X, pre, hidden);
}

IVec QuadraticTeacher::labels(ConstMatRef X) const {
  const Mat P = probabilities(X);
  IVec y(P.rows());
  for (Index i = 0; i < P.rows(); ++i) {
    Index best = 0;
    P.row(i).maxCoeff(&best);
    y(i) = static_cast<std::int32_t>(best);
  }
  return y;
}

double QuadraticTeacher::objective(ConstMatRef X, const IVec& y, ConstMatRef U, const TeacherSettings& settings,
                                   TeacherParameters* grad) const {
  const Index n = X.rows(), u = U.rows();
  Mat pre, hidden;
  // Cross-entropy on L; ∂/∂O = (P − onehot(y))/n.
  Mat dO = forward(X, pre, hidden);
  double value = 0;
  for (Index i = 0; i < n; ++i) {
    value -= std::log(static_cast<double>(dO(i, y(i)) + kTiny));
    dO(i, y(i)) -= 1;
  }
  value /= static_cast<double>(n);
  dO /= static_cast<Scalar>(n);
  if (grad) {
    grad->A.noalias() = dO.transpose() * hidden;  // K×m
    Mat dZ = dO * theta_.A;                        // n×m: ∂/∂hidden
    dZ.array() *= 2 * pre.array();                 // through the square
    grad->W.noalias() = dZ.transpose() * X;        // m×D
    grad->b = dZ.colwise().sum();
  }
  if (settings.balance > 0 && u > 0) {
    // R on U. ∂R/∂p_ij = μ[(ln p̄_j + 1) − λ(ln p_ij + 1)]/u; the constants cancel through the softmax's
    // Jacobian, ∂/∂O_ij = p_ij (g_ij − Σ_k p_ik g_ik).
    Mat pre_u, hidden_u;
    const Mat P = forward(U, pre_u, hidden_u);
    const RowVec mean = P.colwise().mean();
    const Mat log_p = (P.array() + kTiny).log().matrix();
    const RowVec log_mean = (mean.array() + kTiny).log().matrix();
    const double r1 = static_cast<double>((mean.array() * log_mean.array()).sum());
    const double r2 = -static_cast<double>((P.array() * log_p.array()).sum()) / static_cast<double>(u);
    value += settings.balance * (r1 + settings.confidence * r2);
    if (grad) {
      Mat g = -static_cast<Scalar>(settings.confidence) * log_p;
      g.rowwise() += log_mean;
      g *= static_cast<Scalar>(settings.balance / static_cast<double>(u));
      const Vec expected = (P.array() * g.array()).rowwise().sum().matrix();
      const Mat dOu = (P.array() * (g.colwise() - expected).array()).matrix();
      grad->A.noalias() += dOu.transpose() * hidden_u;
      Mat dZu = dOu * theta_.A;
      dZu.array() *= 2 * pre_u.array();
      grad->W.noalias() += dZu.transpose() * U;
      grad->b += dZu.colwise().sum();
    }
  }
  return value;
}

TeacherFit QuadraticTeacher::train(ConstMatRef X, const IVec& y, ConstMatRef U, const TeacherSettings& settings) {
  TeacherParameters grad;
  AdamBlock adam_W, adam_A, adam_b;
  for (Index t = 1; t <= settings.steps; ++t) {
    objective(X, y, U, settings, &grad);
    adam_W.step(theta_.W, grad.W, settings.lr, t);
    adam_A.step(theta_.A, grad.A, settings.lr, t);
    adam_b.step(theta_.b, grad.b, settings.lr, t);
  }
  TeacherFit fit;
  const IVec predicted = labels(X);
  fit.train_accuracy = static_cast<double>((predicted.array() == y.array()).count()) / static_cast<double>(std::max<Index>(X.rows(), 1));
  if (U.rows() > 0) {
    const Mat P = probabilities(U);
    fit.injected_balance = static_cast<double>(P.colwise().mean().minCoeff()) * static_cast<double>(theta_.A.rows());
  }
  return fit;
}

}  // namespace featurelab::feature_emergence_pack

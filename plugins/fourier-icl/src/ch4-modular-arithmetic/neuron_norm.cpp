// The per-neuron norms in double from the rows of U and W (row-major: neuron i's u_{i,1..k} and w_i are contiguous),
// the gradient added row by row.
#include "neuron_norm.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace featurelab::fourier_icl_pack {

Schema NeuronNorm::schema() {
  Schema s;
  s.real("lambda", 0.0, "λ: the penalty's weight (Lemma 4.7's limit is λ → 0)").min(0);
  s.choice("exponent", "norm", {"norm", "power"},
           "norm: λ‖θ‖_{2,k+1} (Def. 4.1); power: λ‖θ‖_{2,k+1}^{k+1} = λ Σ_i ‖θ_i‖^{k+1} (smooth at 0)");
  return s;
}

NeuronNorm::NeuronNorm(const Params& params, Context&)
    : lambda_(params.real("lambda")), power_(params.str("exponent") == "power") {}

void NeuronNorm::bind(Model& model) {
  const ParamBlock* ub = model.find_block("U");
  const ParamBlock* wb = model.find_block("W");
  if (!ub || !wb || wb->cols < 2 || ub->cols % wb->cols != 0 || ub->rows != wb->rows) {
    throw Error("neuron-norm reads blocks U (m×kp) and W (m×p) of poly-one-hidden-layer, one row per neuron");
  }
  if (!ub->trainable || !wb->trainable) throw Error("neuron-norm: blocks U and W must both be trainable");
  k_ = static_cast<int>(ub->cols / wb->cols);
  m_ = ub->rows;
  u_offset_ = ub->offset;
  u_cols_ = ub->cols;
  w_offset_ = wb->offset;
  w_cols_ = wb->cols;
}

double NeuronNorm::neuron_norms(const Model& model) {
  const auto theta = model.parameters();
  squared_.resize(m_);
  double P = 0;
  for (Index i = 0; i < m_; ++i) {
    const double s = theta.segment(u_offset_ + i * u_cols_, u_cols_).cast<double>().squaredNorm() +
                     theta.segment(w_offset_ + i * w_cols_, w_cols_).cast<double>().squaredNorm();
    squared_(i) = s;
    P += std::pow(s, 0.5 * (k_ + 1));
  }
  return P;
}

double NeuronNorm::value(double P) const { return lambda_ * (power_ ? P : std::pow(P, 1.0 / (k_ + 1))); }

Scalar NeuronNorm::penalty(Model& model, const Batch&, Index) {
  if (lambda_ == 0) return 0;
  return static_cast<Scalar>(value(neuron_norms(model)));
}

Scalar NeuronNorm::add_penalty(Model& model, const Batch&, Index, VecRef grad) {
  if (lambda_ == 0) return 0;
  const double P = neuron_norms(model);
  if (P == 0) return 0;  // θ = 0: 0 is a subgradient of the norm (and the gradient of the power)
  // d(value)/dθ_i = scale · s_i^{(k−1)/2} θ_i.
  const double scale = power_ ? lambda_ * (k_ + 1) : lambda_ * std::pow(P, 1.0 / (k_ + 1) - 1.0);
  const auto theta = model.parameters();
  for (Index i = 0; i < m_; ++i) {
    const auto c = static_cast<Scalar>(scale * std::pow(squared_(i), 0.5 * (k_ - 1)));
    grad.segment(u_offset_ + i * u_cols_, u_cols_) += c * theta.segment(u_offset_ + i * u_cols_, u_cols_);
    grad.segment(w_offset_ + i * w_cols_, w_cols_) += c * theta.segment(w_offset_ + i * w_cols_, w_cols_);
  }
  return static_cast<Scalar>(value(P));
}

}  // namespace featurelab::fourier_icl_pack

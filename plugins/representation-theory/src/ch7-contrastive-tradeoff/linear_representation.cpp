#include "linear_representation.hpp"
#include "task_structure.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>

namespace featurelab::representation_theory_pack {

Schema LinearRepresentation::schema() {
  Schema s;
  s.integer("k", Automatic{"the input dimension d"}, "the representation's dimension k").min(1);
  s.choice("init", "gaussian", {"gaussian", "ideal-mixture", "ideal-specific"},
           "gaussian N(0, init_std²); ideal-mixture: Prop. 7.3's optimum on the even mixture (√α on S, √β on every P_t, "
           "Q = I); ideal-specific: Prop. 7.4's optimum for init_task (1 on S ∪ P_t)");
  s.real("init_std", 0.1, "gaussian: the standard deviation of each W_ij").min(0);
  s.real("init_alpha", 1.0, "ideal-mixture: α, the weight² of S; β = min(1, (r − αs)/(T(r − s))) (α = 1, r = 2s: Prop. "
                            "F.8's optimum, β = 1/T)").above(0).max(1);
  s.integer("init_task", 0, "ideal-specific: the task t (0-based)").min(0);
  s.boolean("head", false, "add block u (1×k), the linear predictor uᵀφ(x) that contrastive-regularized trains (eq. 7.9)");
  return s;
}

LinearRepresentation::LinearRepresentation(const Params& params, Context& context)
    : k_(params.integer_or_auto("k").value_or(context.data.dim)),
      d_(context.data.dim),
      init_(params.str("init")),
      init_std_(params.real("init_std")) {
  if (d_ < 1) throw Error("linear-representation: the data has dimension 0");
  W_ = declare_block("W", k_, d_, true);
  if (params.boolean("head")) u_ = declare_block("u", 1, k_, true);
  allocate_parameters();
  if (init_ == "gaussian") return;

  const std::string who = context.name + " init = \"" + init_ + "\"";
  const TaskStructure ts = read_task_structure(context.features, who);
  if (ts.d != d_) throw Error(who + ": the data's dictionary is " + std::to_string(ts.d) + "-dimensional, the inputs " + std::to_string(d_));
  // The weight² of each hidden coordinate.
  Eigen::VectorXd a2 = Eigen::VectorXd::Zero(d_);
  if (init_ == "ideal-mixture") {
    const double alpha = params.real("init_alpha");
    const double beta = std::min(1.0, (static_cast<double>(ts.r) - alpha * static_cast<double>(ts.s)) /
                                          (static_cast<double>(ts.T) * static_cast<double>(ts.r - ts.s)));
    for (Index j = 0; j < d_; ++j) {
      const int g = ts.group[static_cast<std::size_t>(j)];
      a2(j) = g == 0 ? alpha : (g > 0 ? beta : 0.0);
    }
  } else {
    const Index t = params.integer("init_task");
    if (t >= ts.T) throw Error(who + ": init_task = " + std::to_string(t) + " but the data has T = " + std::to_string(ts.T) + " tasks");
    for (Index j = 0; j < d_; ++j) {
      const int g = ts.group[static_cast<std::size_t>(j)];
      a2(j) = (g == 0 || g == static_cast<int>(t) + 1) ? 1.0 : 0.0;
    }
  }
  if (k_ < d_ - ts.spurious) {
    throw Error(who + " puts hidden coordinate j on row j of W, so it needs k >= |R| = " + std::to_string(d_ - ts.spurious) +
                " (got k = " + std::to_string(k_) + "); set model.k = \"auto\" (k = d)");
  }
  // Row j = √a_j · (M e_j)ᵀ: W M = [A, 0], the theory's W* with Q = I.
  ideal_ = Mat::Zero(k_, d_);
  for (Index j = 0; j < d_; ++j) {
    if (a2(j) > 0) ideal_.row(j) = static_cast<Scalar>(std::sqrt(a2(j))) * ts.atoms.row(j);
  }
}

void LinearRepresentation::init(Rng& rng) {
  MatMap W = block(W_);
  if (init_ == "gaussian") {
    rng.fill_normal(W, init_std_);
  } else {
    W = ideal_;
  }
  if (u_) block(u_).setZero();
}

void LinearRepresentation::forward(ConstMatRef X, MatRef out) {
  out.noalias() = X * block(W_).transpose();
}

void LinearRepresentation::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  grad_block(grad, W_).noalias() = dout.transpose() * X;
  if (u_) grad_block(grad, u_).setZero();  // not in forward()
}

void LinearRepresentation::input_gradient(ConstMatRef, ConstMatRef dout, MatRef dX) {
  dX.noalias() = dout * block(W_);
}

}  // namespace featurelab::representation_theory_pack

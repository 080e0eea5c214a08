// The group layout, the dictionary (QR of a Gaussian matrix, in double) and the label vectors are fixed at
// construction from the component's own stream; a sample is standard normals scaled by its task's row of
// `scales` and one GEMM Z·atoms.
#include "multitask_linear.hpp"

#include <featurelab/error.hpp>
#include <featurelab/linalg.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace featurelab::representation_theory_pack {

Schema MultitaskLinear::schema() {
  Schema s;
  s.integer("s", 2, "|S|: the features every task shares").min(1);
  s.integer("r", 4, "|R_t| = |S ∪ P_t|: each task's invariant features (r > s; the theory's illustrative case r = 2s)").min(2);
  s.integer("T", 3, "the number of tasks").min(1);
  s.integer("spurious", 4, "|U|: the spurious features, resampled by the transformation (eq. 7.7)").min(0);
  s.real("sigma_s", 1.0, "σ_S: standard deviation of the shared features (F.35)").above(0);
  s.real("sigma_r", 1.0, "σ_R: standard deviation of the task's private features (F.35)").above(0);
  s.real("sigma_u", 1.0, "σ_U: standard deviation of the spurious features (F.36)").min(0);
  s.integers("tasks", {}, "the tasks this data is drawn from (0-based); empty = all T (the diverse mixture), one "
                          "task = the task-specific data").min(0);
  s.reals("weights", {}, "the mixture weights of `tasks`, in order (normalised); empty = even").min(0);
  s.choice("dictionary", "random-orthonormal", {"random-orthonormal", "identity"},
           "M: a random orthonormal matrix (QR of a Gaussian one) or the identity (the theory's w.l.o.g.)");
  s.choice("labels", "random-unit", {"random-unit", "balanced"},
           "u_t*: uniform on the unit sphere of R^r, or balanced (random directions with ‖u_S‖² = ‖u_Pt‖² = 1/2: "
           "v_{t,1} = v_{t,2}, §7.2.2's illustrative case)");
  return s;
}

MultitaskLinear::MultitaskLinear(const Params& params, Context& context)
    : s_(params.integer("s")),
      r_(params.integer("r")),
      T_(params.integer("T")),
      spurious_(params.integer("spurious")) {
  if (r_ <= s_) {
    throw Error("multitask-linear: r = " + std::to_string(r_) + " must exceed s = " + std::to_string(s_) +
                " (each task owns r − s >= 1 private features); raise r, e.g. r = " + std::to_string(2 * s_));
  }
  const Index p = r_ - s_;
  d_ = s_ + T_ * p + spurious_;

  // Which tasks, with which weights.
  std::vector<Index> tasks;
  for (auto t : params.integers("tasks")) {
    if (t >= T_) {
      throw Error("multitask-linear: tasks names task " + std::to_string(t) + " but T = " + std::to_string(T_) +
                  " (tasks are 0-based: 0 … " + std::to_string(T_ - 1) + ")");
    }
    tasks.push_back(static_cast<Index>(t));
  }
  if (tasks.empty()) {
    for (Index t = 0; t < T_; ++t) tasks.push_back(t);
  }
  if (std::set<Index>(tasks.begin(), tasks.end()).size() != tasks.size()) {
    throw Error("multitask-linear: tasks lists a task twice; give each once and weight them with `weights`");
  }
  std::vector<double> weights = params.reals("weights");
  if (weights.empty()) weights.assign(tasks.size(), 1.0);
  if (weights.size() != tasks.size()) {
    throw Error("multitask-linear: weights has " + std::to_string(weights.size()) + " entries for " +
                std::to_string(tasks.size()) + " tasks; give one weight per task in `tasks` (or none: even)");
  }
  double total = 0;
  for (double w : weights) total += w;
  if (total <= 0) throw Error("multitask-linear: the weights sum to 0; give at least one positive weight");
  mixture_ = Mat::Zero(1, T_);
  for (std::size_t i = 0; i < tasks.size(); ++i) mixture_(0, tasks[i]) = static_cast<Scalar>(weights[i] / total);
  double running = 0;
  for (Index t = 0; t < T_; ++t) {
    running += static_cast<double>(mixture_(0, t));
    cumulative_.push_back(running);
  }

  // Coordinates: S = [0, s), P_t = [s + t·p, s + (t+1)·p), U = the last `spurious`.
  groups_.resize(1, d_);
  groups_.leftCols(s_).setZero();
  for (Index t = 0; t < T_; ++t) groups_.middleCols(s_ + t * p, p).setConstant(static_cast<Scalar>(t + 1));
  groups_.rightCols(spurious_).setConstant(-1);
  const auto sigma_s = static_cast<Scalar>(params.real("sigma_s"));
  const auto sigma_r = static_cast<Scalar>(params.real("sigma_r"));
  const auto sigma_u = static_cast<Scalar>(params.real("sigma_u"));
  scales_ = Mat::Zero(T_, d_);
  for (Index t = 0; t < T_; ++t) {
    scales_.row(t).leftCols(s_).setConstant(sigma_s);
    scales_.row(t).middleCols(s_ + t * p, p).setConstant(sigma_r);
    scales_.row(t).rightCols(spurious_).setConstant(sigma_u);
  }

  const Eigen::MatrixXd M = params.str("dictionary") == "random-orthonormal"
                                ? random_orthogonal<Eigen::MatrixXd>(context.rng, d_)
                                : Eigen::MatrixXd::Identity(d_, d_);
  atoms_ = M.transpose().cast<Scalar>();  // row j = column j of M

  // u_t* on R_t: Gaussian directions, normalised on the whole of R_t or on S and P_t separately.
  const bool balanced = params.str("labels") == "balanced";
  labels_ = Mat::Zero(T_, d_);
  for (Index t = 0; t < T_; ++t) {
    Eigen::VectorXd us(s_), up(p);
    for (Index j = 0; j < s_; ++j) us(j) = context.rng.normal();
    for (Index j = 0; j < p; ++j) up(j) = context.rng.normal();
    if (balanced) {
      us *= std::sqrt(0.5) / us.norm();
      up *= std::sqrt(0.5) / up.norm();
    } else {
      const double norm = std::sqrt(us.squaredNorm() + up.squaredNorm());
      us /= norm;
      up /= norm;
    }
    labels_.row(t).leftCols(s_) = us.transpose().cast<Scalar>();
    labels_.row(t).middleCols(s_ + t * p, p) = up.transpose().cast<Scalar>();
  }
}

double MultitaskLinear::dimension(const Params& params) {
  // s shared + T·(r − s) private + the spurious coordinates, as the constructor lays them out.
  const double s = double(params.integer("s")), r = double(params.integer("r"));
  return s + double(params.integer("T")) * (r - s) + double(params.integer("spurious"));
}

DataSpec MultitaskLinear::spec() const {
  DataSpec s;
  s.dim = d_;
  s.classes = static_cast<int>(std::max<Index>(T_, 2));  // y = the task
  s.target_cols = 1;
  s.meta = {"task", "target"};
  return s;
}

void MultitaskLinear::sample(Index n, Split, Rng& rng, Dataset& out) {
  task_.resize(static_cast<std::size_t>(n));
  for (auto& t : task_) {
    const double u = rng.uniform();
    t = std::min<Index>(static_cast<Index>(std::upper_bound(cumulative_.begin(), cumulative_.end(), u) - cumulative_.begin()), T_ - 1);
    while (mixture_(0, t) == 0) --t;  // u at a boundary rounded into a task of weight 0
  }
  fill(n, rng, out);
}

void MultitaskLinear::sample_task(Index n, Index task, Rng& rng, Dataset& out) {
  if (task < 0 || task >= T_) {
    throw Error("multitask-linear: task " + std::to_string(task) + " does not exist (T = " + std::to_string(T_) + ")");
  }
  task_.assign(static_cast<std::size_t>(n), task);
  fill(n, rng, out);
}

void MultitaskLinear::fill(Index n, Rng& rng, Dataset& out) {
  out.resize(n, d_, 1);
  out.classes = static_cast<int>(std::max<Index>(T_, 2));
  Z_.resize(n, d_);
  rng.fill_normal(Z_);
  VecD& task = out.meta["task"];
  VecD& target = out.meta["target"];
  task.resize(n);
  target.resize(n);
  for (Index i = 0; i < n; ++i) {
    const Index t = task_[static_cast<std::size_t>(i)];
    Z_.row(i).array() *= scales_.row(t).array();
    out.y(i) = static_cast<std::int32_t>(t);
    task(i) = static_cast<double>(t);
    out.T(i, 0) = Z_.row(i).dot(labels_.row(t));
    target(i) = static_cast<double>(out.T(i, 0));
  }
  out.X.noalias() = Z_ * atoms_;
}

FeatureSet MultitaskLinear::features() const {
  Mat setting(1, 4);
  setting << static_cast<Scalar>(s_), static_cast<Scalar>(r_), static_cast<Scalar>(T_), static_cast<Scalar>(spurious_);
  return {{"dictionary", atoms_}, {"groups", groups_},   {"scales", scales_},
          {"labels", labels_},    {"mixture", mixture_}, {"setting", setting}};
}

}  // namespace featurelab::representation_theory_pack

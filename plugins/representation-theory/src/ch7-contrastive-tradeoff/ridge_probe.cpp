// Per trial: one draw Z (m_max×d) of the task's law, the features of every representation as one GEMM Z·G, then one
// k×k ridge solve per m (Cholesky; λ = 0: complete orthogonal decomposition) in double.
#include "ridge_probe.hpp"
#include "task_structure.hpp"

#include <featurelab/error.hpp>

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include <algorithm>
#include <string>

namespace featurelab::representation_theory_pack {

namespace {

// û for the first m rows of (Phi, y).
VecD ridge(const MatD& Phi, const VecD& y, Index m, double lambda) {
  const auto F = Phi.topRows(m);
  if (lambda == 0) return F.completeOrthogonalDecomposition().solve(y.head(m));
  MatD A = F.transpose() * F;
  A.diagonal().array() += lambda;
  return A.llt().solve(F.transpose() * y.head(m));
}

}  // namespace

Schema RidgeProbe::schema() {
  Schema s;
  s.real("lambda", 1.0, "λ of the ridge penalty λ‖u‖² on the sum of squares (our default 1); 0 = minimum-norm "
                        "least squares (hides the trade-off: it ignores how features are weighted)").min(0);
  s.integers("labels", {5, 10, 20, 40, 100, 400}, "the numbers m of labelled samples").min(1).non_empty();
  s.integer("trials", 40, "draws per (task, m)").min(1);
  s.integer("target_task", 0, "the downstream target task t (0-based): ideal-specific is its representation, ratios "
                              "and min_norm2 are on it").min(0);
  s.boolean("reference", true, "also probe the chapter's ideal mixture and task-specific representations on the same "
                               "draws (ideal-mixture.*, ideal-specific.*, ideal-ratio.*)");
  s.boolean("only_final", true, "measure only after the last training step");
  return s;
}

RidgeProbe::RidgeProbe(const Params& params, Context& context)
    : lambda_(params.real("lambda")),
      trials_(params.integer("trials")),
      target_task_(params.integer("target_task")),
      total_steps_(context.total_steps),
      reference_(params.boolean("reference")),
      only_final_(params.boolean("only_final")),
      seed_(context.rng.seed()) {
  for (auto m : params.integers("labels")) labels_.push_back(m);
}

void RidgeProbe::measure(const ProbeInput& in, Measurements& out) {
  if (only_final_ && in.step != total_steps_) return;
  const TaskStructure ts = read_task_structure(&in.features, name());
  if (target_task_ >= ts.T) {
    throw Error("ridge-probe target_task = " + std::to_string(target_task_) + " but the data has T = " +
                std::to_string(ts.T) + " tasks");
  }
  // The representations in hidden coordinates (d×k each): trained, then the ideal ones.
  std::vector<MatD> reps{hidden_weights(in.model, ts, "ridge-probe")};
  std::vector<std::string> names{""};
  if (reference_) {
    VecD mix(ts.d), spec(ts.d);
    for (Index j = 0; j < ts.d; ++j) {
      const int g = ts.group[static_cast<std::size_t>(j)];
      mix(j) = g == 0 ? 1.0 : (g > 0 ? 1.0 / std::sqrt(static_cast<double>(ts.T)) : 0.0);
      spec(j) = (g == 0 || g == static_cast<int>(target_task_) + 1) ? 1.0 : 0.0;
    }
    reps.push_back(mix.asDiagonal());
    reps.push_back(spec.asDiagonal());
    names.push_back("ideal-mixture.");
    names.push_back("ideal-specific.");
  }
  const Index mmax = *std::max_element(labels_.begin(), labels_.end());
  const Index L = static_cast<Index>(labels_.size());
  // The same draws at every measured step and in every sweep point of a seed (paired comparisons), whatever else ran.
  Rng rng(derive_seed(seed_, "ridge-probe.draws"));
  std::vector<MatD> mse(reps.size(), MatD::Zero(ts.T, L));  // per representation: task × m
  MatD Z(mmax, ts.d), Phi;
  VecD y, err;
  for (Index task = 0; task < ts.T; ++task) {
    const VecD scale = ts.scales.row(task).transpose().cast<double>();
    const VecD u = ts.labels.row(task).transpose().cast<double>();
    for (Index trial = 0; trial < trials_; ++trial) {
      for (Index i = 0; i < mmax; ++i) {
        for (Index j = 0; j < ts.d; ++j) Z(i, j) = rng.normal() * scale(j);
      }
      y.noalias() = Z * u;
      for (std::size_t r = 0; r < reps.size(); ++r) {
        Phi.noalias() = Z * reps[r];
        for (Index l = 0; l < L; ++l) {
          const VecD w = ridge(Phi, y, labels_[static_cast<std::size_t>(l)], lambda_);
          err.noalias() = reps[r] * w;
          err -= u;
          mse[r](task, l) += err.cwiseProduct(scale).squaredNorm() / static_cast<double>(trials_);
        }
      }
    }
  }
  for (std::size_t r = 0; r < reps.size(); ++r) {
    for (Index l = 0; l < L; ++l) {
      const std::string m = ".m=" + std::to_string(labels_[static_cast<std::size_t>(l)]);
      for (Index task = 0; task < ts.T; ++task) out.scalar(names[r] + "mse.task" + std::to_string(task) + m, mse[r](task, l));
      if (r == 0) out.scalar("universality" + m, mse[r].col(l).mean());
    }
  }
  if (reference_) {
    for (Index l = 0; l < L; ++l) {
      out.scalar("ideal-ratio.m=" + std::to_string(labels_[static_cast<std::size_t>(l)]),
                 mse[1](target_task_, l) / std::max(mse[2](target_task_, l), 1e-300));
    }
  }
  for (Index task = 0; task < ts.T; ++task) {
    const VecD energy = ts.labels.row(task).cwiseProduct(ts.scales.row(task)).transpose().cast<double>().cwiseAbs2();
    double floor = 0;
    for (Index j : ts.private_of(task)) floor += energy(j);
    out.scalar("floor.task" + std::to_string(task), floor);
    out.scalar("variance.task" + std::to_string(task), energy.sum());
  }
  // B²: the least-norm u with (WM)ᵀu = u* on R_t (F.64–F.68). The theory's optimum has WM = 0 on U, so there y =
  // uᵀφ(x) exactly; a trained W keeps tiny U columns, and demanding (WM)ᵀu = 0 on them as well would make the problem
  // ill-conditioned (they lie in the span of the R columns), so U is left out: its residual is noise, not signal.
  {
    std::vector<Index> R = ts.shared();
    for (Index j : ts.private_of(target_task_)) R.push_back(j);
    MatD A(static_cast<Index>(R.size()), reps[0].cols());
    VecD b(static_cast<Index>(R.size()));
    for (std::size_t i = 0; i < R.size(); ++i) {
      A.row(static_cast<Index>(i)) = reps[0].row(R[i]);
      b(static_cast<Index>(i)) = static_cast<double>(ts.labels(target_task_, R[i]));
    }
    const VecD w = A.completeOrthogonalDecomposition().solve(b);
    const bool realised = (A * w - b).norm() <= 1e-6 * std::max(1.0, b.norm());
    out.scalar("min_norm2", realised ? w.squaredNorm() : -1.0);
  }
  Table table;
  table.values.resize(L, static_cast<Index>(reps.size()));
  for (std::size_t r = 0; r < reps.size(); ++r) table.values.col(static_cast<Index>(r)) = mse[r].row(target_task_).transpose();
  for (Index l = 0; l < L; ++l) table.row_names.push_back(std::to_string(labels_[static_cast<std::size_t>(l)]));
  table.col_names = {"trained"};
  if (reference_) {
    table.col_names.push_back("ideal-mixture");
    table.col_names.push_back("ideal-specific");
  }
  out.table("target", std::move(table));
}

}  // namespace featurelab::representation_theory_pack

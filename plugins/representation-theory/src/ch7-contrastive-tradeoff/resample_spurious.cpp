#include "resample_spurious.hpp"
#include "task_structure.hpp"

#include <featurelab/error.hpp>
#include <featurelab/views.hpp>

namespace featurelab::representation_theory_pack {

Schema ResampleSpurious::schema() {
  Schema s;
  s.integer("positives", 0, "K: the first K rows of each batch become (anchor, positive) pairs, the other N rows stay "
                            "negatives; 0 = every row a pair and no negatives (negatives = \"expected\")").min(0);
  return s;
}

ResampleSpurious::ResampleSpurious(const Params& params, Context& context) : positives_(params.integer("positives")) {
  const TaskStructure ts = read_task_structure(context.features, context.name);
  const std::vector<Index> u = ts.spurious_coordinates();
  atoms_u_.resize(static_cast<Index>(u.size()), ts.d);
  for (std::size_t i = 0; i < u.size(); ++i) atoms_u_.row(static_cast<Index>(i)) = ts.atoms.row(u[i]);
  // σ_U is the same in every task (multitask-linear's sigma_u).
  sigma_u_ = u.empty() ? Scalar(0) : ts.scales(0, u.front());
}

void ResampleSpurious::apply(const Batch& in, Dataset& out, Rng& rng) {
  const Index K = positives_ == 0 ? in.n : positives_;
  if (K > in.n) {
    throw Error("resample-spurious: positives = " + std::to_string(K) + " but the batch has " + std::to_string(in.n) +
                " rows; set the trainer's batch to K + N (N negatives, N = K for negatives = \"single\")");
  }
  const Index N = in.n - K, D = in.dim, tc = in.has_targets() ? in.t_cols : 0;
  out.resize(2 * K + N, D, 1 + tc);
  out.classes = in.classes;
  const ConstMatMap X = in.X();
  out.X.topRows(K) = X.topRows(K);
  out.X.middleRows(K, K) = X.topRows(K);
  out.X.bottomRows(N) = X.bottomRows(N);
  if (atoms_u_.rows() > 0) {
    // z_U⁺ − z_U, then x⁺ = x + (z_U⁺ − z_U) M_Uᵀ.
    fresh_.resize(K, atoms_u_.rows());
    rng.fill_normal(fresh_, static_cast<double>(sigma_u_));
    fresh_.noalias() -= X.topRows(K) * atoms_u_.transpose();
    out.X.middleRows(K, K).noalias() += fresh_ * atoms_u_;
  }
  write_view_roles(in.Y(), K, out);
  if (tc > 0) {
    const ConstMatMap T = in.T();
    out.T.block(0, 1, K, tc) = T.topRows(K);
    out.T.block(K, 1, K, tc) = T.topRows(K);
    out.T.block(2 * K, 1, N, tc) = T.bottomRows(N);
  }
}

}  // namespace featurelab::representation_theory_pack

#include "learned_feature_weights.hpp"
#include "task_structure.hpp"

#include <featurelab/error.hpp>

namespace featurelab::representation_theory_pack {

Schema LearnedFeatureWeights::schema() {
  Schema s;
  s.integer("target_task", 0, "the task whose private group is left out of P_rest (the fine-tuning target)").min(0);
  return s;
}

LearnedFeatureWeights::LearnedFeatureWeights(const Params& params, Context&) : target_task_(params.integer("target_task")) {}

void LearnedFeatureWeights::measure(const ProbeInput& in, Measurements& out) {
  const TaskStructure ts = read_task_structure(&in.features, name());
  if (target_task_ >= ts.T) {
    throw Error(name() + ": target_task = " + std::to_string(target_task_) + " but the data has T = " +
                std::to_string(ts.T) + " tasks");
  }
  const MatD G = hidden_weights(in.model, ts, name());  // d×k, row j = φ(M e_j)
  const VecD D = G.rowwise().squaredNorm();

  // Group means: S, P_0 … P_{T−1}, U.
  std::vector<int> groups{0};
  for (Index t = 0; t < ts.T; ++t) groups.push_back(static_cast<int>(t) + 1);
  groups.push_back(-1);
  if (columns_.empty()) {
    for (int g : groups) columns_.push_back(TaskStructure::group_name(g));
  }
  std::vector<double> means;
  double rest = 0;
  for (int g : groups) {
    const std::vector<Index> members = ts.members(g);
    double sum = 0;
    for (Index j : members) sum += D(j);
    const double mean = members.empty() ? 0.0 : sum / static_cast<double>(members.size());
    means.push_back(mean);
    out.scalar(TaskStructure::group_name(g), mean);
    if (g > 0 && g != static_cast<int>(target_task_) + 1) rest += mean;
  }
  if (ts.T > 1) out.scalar("P_rest", rest / static_cast<double>(ts.T - 1));
  double u_max = 0;
  for (Index j : ts.spurious_coordinates()) u_max = std::max(u_max, D(j));
  out.scalar("U_max", u_max);
  out.scalar("fro2", D.sum());

  // Off-diagonal shares of the Gram matrix (WM)ᵀ(WM): within each task's R_t = S ∪ P_t (what the loss sees; the
  // theory's optimum has none), and between different tasks' private features (never active together, so the loss
  // does not see it: the optimum is not unique there).
  const auto offdiag_share = [&](const std::vector<Index>& rows) {
    MatD sub(static_cast<Index>(rows.size()), G.cols());
    for (std::size_t i = 0; i < rows.size(); ++i) sub.row(static_cast<Index>(i)) = G.row(rows[i]);
    const MatD gram = sub * sub.transpose();
    const double total = gram.norm();
    return total > 0 ? std::sqrt(std::max(0.0, gram.squaredNorm() - gram.diagonal().squaredNorm())) / total : 0.0;
  };
  double within = 0;
  for (Index t = 0; t < ts.T; ++t) {
    std::vector<Index> rows = ts.shared();
    for (Index j : ts.private_of(t)) rows.push_back(j);
    within = std::max(within, offdiag_share(rows));
  }
  out.scalar("offdiag", within);
  std::vector<Index> privates;
  for (Index j = 0; j < ts.d; ++j) {
    if (ts.group[static_cast<std::size_t>(j)] > 0) privates.push_back(j);
  }
  if (ts.T > 1) out.scalar("offdiag_tasks", offdiag_share(privates));

  Table weights;
  weights.values = D;
  weights.col_names = {"weight"};
  std::vector<Index> seen(groups.size(), 0);
  for (Index j = 0; j < ts.d; ++j) {
    const int g = ts.group[static_cast<std::size_t>(j)];
    const std::size_t slot = g < 0 ? groups.size() - 1 : static_cast<std::size_t>(g);
    weights.row_names.push_back(TaskStructure::group_name(g) + "." + std::to_string(seen[slot]++));
  }
  out.table("weights", std::move(weights));

  steps_.push_back(in.step);
  history_.push_back(means);
  Table table;
  table.values.resize(static_cast<Index>(history_.size()), static_cast<Index>(means.size()));
  for (std::size_t i = 0; i < history_.size(); ++i) {
    for (std::size_t c = 0; c < means.size(); ++c) table.values(static_cast<Index>(i), static_cast<Index>(c)) = history_[i][c];
    table.row_names.push_back(std::to_string(steps_[i]));
  }
  table.col_names = columns_;
  out.table("groups", std::move(table));
}

}  // namespace featurelab::representation_theory_pack

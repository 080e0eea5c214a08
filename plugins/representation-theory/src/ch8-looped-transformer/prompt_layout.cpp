#include "prompt_layout.hpp"

#include <featurelab/error.hpp>

#include <algorithm>

namespace featurelab::representation_theory_pack {

PromptShape prompt_shape(const DataShape& shape, Index dim, const std::string& who) {
  if (shape.dims.size() != 2 || shape.dims[0] < 2 || shape.dims[1] < 2 || shape.dims[0] * shape.dims[1] != dim) {
    throw Error(who + ": expected prompts Z = [[X, y], [q, α]] shaped (n+1)×(d+1) (Def. 8.5), got data of dimension " +
                std::to_string(dim) + (shape.dims.size() == 2 ? " shaped " + std::to_string(shape.dims[0]) + "×" +
                                                                   std::to_string(shape.dims[1])
                                                             : std::string(" without a 2-D shape")) +
                "; use data.use = \"looped-icl-prompts\"");
  }
  return {shape.dims[0] - 1, shape.dims[1] - 1};
}

std::string label_column(Index i) { return "y" + std::to_string(i); }
std::string task_column(Index j) { return "theta" + std::to_string(j); }

MatD prompt_matrix(const Scalar* row, const PromptShape& shape) {
  return Eigen::Map<const Mat>(row, shape.n + 1, shape.d + 1).cast<double>();
}

std::vector<LoopedPrompt> read_prompts(const Dataset& data, const std::string& who, bool need_task) {
  const PromptShape shape = prompt_shape(data.shape, data.dim(), who);
  const auto column = [&](const std::string& name) -> const VecD* {
    auto it = data.meta.find(name);
    return it == data.meta.end() || it->second.size() != data.size() ? nullptr : &it->second;
  };
  std::vector<const VecD*> labels, task;
  for (Index i = 0; i < shape.n; ++i) labels.push_back(column(label_column(i)));
  for (Index j = 0; j < shape.d; ++j) task.push_back(column(task_column(j)));
  const VecD* alpha = column(kAlphaColumn);
  const bool exact = alpha && std::all_of(labels.begin(), labels.end(), [](const VecD* c) { return c != nullptr; });
  const bool has_task = std::all_of(task.begin(), task.end(), [](const VecD* c) { return c != nullptr; });
  if (need_task && !has_task) {
    throw Error(who + ": the test prompts carry no hidden task θ* (meta theta0 … theta" + std::to_string(shape.d - 1) +
                "); use data.use = \"looped-icl-prompts\"");
  }
  std::vector<LoopedPrompt> prompts(static_cast<std::size_t>(data.size()));
  for (Index s = 0; s < data.size(); ++s) {
    LoopedPrompt& p = prompts[static_cast<std::size_t>(s)];
    p.Z = prompt_matrix(data.X.row(s).data(), shape);
    if (exact) {
      for (Index i = 0; i < shape.n; ++i) p.Z(i, shape.d) = (*labels[static_cast<std::size_t>(i)])(s);
      p.Z(shape.n, shape.d) = (*alpha)(s);
    }
    if (has_task) {
      p.theta_star.resize(shape.d);
      for (Index j = 0; j < shape.d; ++j) p.theta_star(j) = (*task[static_cast<std::size_t>(j)])(s);
    }
  }
  return prompts;
}

}  // namespace featurelab::representation_theory_pack

// How chapter 8's prompts sit in a dataset, and how to read them back in double precision (Shi 2024 Def. 8.5).
//
// One sample = one prompt Z^(0) = [[X, y], [q^(0)ᵀ, α]] ∈ R^{(n+1)×(d+1)}, flattened row by row (shape {n+1, d+1}):
// rows 1..n are the in-context examples (x_i, y_i), the last row the query slot (q^(0) = 0, α). The dataset's X is
// the build's Scalar; in a float build y and α would lose their low bits there, so `looped-icl-prompts` also writes
// the exact doubles into meta columns (y0 … y{n−1}, alpha, and the hidden task theta0 … theta{d−1}), draws the
// examples x_i already rounded to Scalar (exact in both), and read_prompts() rebuilds Z^(0) bit for bit in double:
// the chapter's checks (1e-9, the float64 floor at ‖θ − θ*‖² ≈ 1e-31) need every digit.
#pragma once

#include <featurelab/dataset.hpp>

#include <string>
#include <vector>

namespace featurelab::representation_theory_pack {

struct PromptShape {
  featurelab::Index n = 0;  // in-context examples
  featurelab::Index d = 0;  // feature dimension
};

// The (n, d) of prompts of this shape; throws naming `who` when the data are not (n+1)×(d+1) prompts.
PromptShape prompt_shape(const featurelab::DataShape& shape, featurelab::Index dim, const std::string& who);

// Meta column names: "y3", "theta1", "alpha".
std::string label_column(featurelab::Index i);
std::string task_column(featurelab::Index j);
inline constexpr const char* kAlphaColumn = "alpha";

struct LoopedPrompt {
  featurelab::MatD Z;           // Z^(0): (n+1)×(d+1)
  featurelab::VecD theta_star;  // d, or empty when the data do not carry the task
  featurelab::MatD X() const { return Z.topLeftCorner(Z.rows() - 1, Z.cols() - 1); }
  featurelab::VecD y() const { return Z.col(Z.cols() - 1).head(Z.rows() - 1); }
  double alpha() const { return Z(Z.rows() - 1, Z.cols() - 1); }
};

// One prompt from its flattened Scalar row (the exact values where the row is all the model sees).
featurelab::MatD prompt_matrix(const featurelab::Scalar* row, const PromptShape& shape);

// Every prompt of the dataset in double: the Scalar rows, with y, α and θ* replaced by their exact meta columns when
// present. need_task: throw (naming `who`) when θ* is absent.
std::vector<LoopedPrompt> read_prompts(const featurelab::Dataset& data, const std::string& who, bool need_task);

}  // namespace featurelab::representation_theory_pack

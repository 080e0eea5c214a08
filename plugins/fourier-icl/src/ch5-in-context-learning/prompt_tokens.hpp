// The prompt layout of the ICL distributions (icl-linear-regression, icl-sparse-parity): each row holds the
// tokens (x_1, y_1), …, (x_L, y_L), (x_q, 0) of d + 1 entries each, unused context slots all zero. Attention
// models with the theory's reduced form read two things from it: the context average h = (1/ρ) Σ_l y_l x_l over
// the filled tokens (ρ = their number) and the query x_q.
#pragma once

#include <featurelab/component.hpp>

#include <string>

namespace featurelab::fourier_icl_pack {

struct PromptShape {
  featurelab::Index slots = 0;  // L context slots
  featurelab::Index dim = 0;    // d
};

// Reads the shape (L+1)×(d+1) from the data spec; throws naming `who` when the data is not prompts.
PromptShape prompt_shape(const featurelab::DataSpec& data, const std::string& who);

// H (n×d): context averages; Xq (n×d): queries.
void summarize_prompts(featurelab::ConstMatRef X, const PromptShape& shape, featurelab::Mat& H, featurelab::Mat& Xq);

}  // namespace featurelab::fourier_icl_pack

// GemFilter (Shi 2024 ch. 9, Alg. 2, App. G.4.1): the selection rule and Thm 9.3's counters; the probe
// gemfilter-selection runs it on the pack's transformer (Transformer::run_tokens).
//   select(r, k): run blocks 1 … r on the prompt; score every token by the LAST query row of block r, raw and summed
//     over heads, s = Σ_h Q_h[n] K_hᵀ (no 1/√a, no softmax, as Alg. 2); pool s with a 1-D window (the code's avg_pool1d,
//     kernel 5, padding 2, count_include_pad; "max" and "none" are App. G.4.1's text and the raw variants); keep the
//     top-k indices, ties to the earlier token, and sort them ascending (App. G.4.1's printed code returns the sort's
//     permutation instead).
//   rerun: the full model on the k selected tokens at fresh positions 0 … k−1 (GemFilter, Alg. 2 line 8).
//   One-Run (App. G.4.5): no second run; the full prompt's cache evicted to J in every block and head, the answer read
//     from it (Transformer::run_evicted); our extra "rerun at original positions" recomputes T_J at its old positions.
// Thm 9.3's complexity (n prompt tokens, m layers, h heads, d head width, k selected, t generated, w weights per layer):
//   prompt time      standard m h n² d    SnapKV m h n² d            GemFilter r h n² d
//   generation time  standard m h (n t + t²) d, SnapKV m h (k t + t²) d, GemFilter m h (k² + t²) d
//   prompt memory    standard m w + 2 m h d (as printed, no n), SnapKV m w + 2 h n d + 2 m h k d, GemFilter r w + 2 h n d
//   generation mem.  standard m w + 2 m h (n + t) d, SnapKV and GemFilter m w + 2 m h (k + t) d
#pragma once

#include <featurelab/types.hpp>

#include <string>
#include <vector>

namespace featurelab::fourier_icl_pack {

enum class Pool { Avg, Max, None };
Pool parse_pool(const std::string& name);

// A score row (length T) pooled over a centred window of `kernel` (avg_pool1d with padding kernel/2, stride 1 and
// count_include_pad, as App. G.4.1's code; max: max_pool1d; none: the raw row). SnapKV's votes are pooled alike.
std::vector<double> pool_scores(const featurelab::Scalar* scores, featurelab::Index T, Pool pool, featurelab::Index kernel);
// The k largest of score[begin … end) (ties to the earlier token), their indices in ascending order.
std::vector<int> top_k_ascending(const std::vector<double>& score, featurelab::Index begin, featurelab::Index end, featurelab::Index k);

// The selection of one prompt from its scores (length T): k ascending indices. keep_last forces the last (query)
// token in; the paper does not (its last query row scores itself, and an LLM prompt ends in many question tokens),
// but a toy prompt whose question is one token loses the answer whenever that token drops out.
std::vector<int> gemfilter_select(const featurelab::Scalar* scores, featurelab::Index T, featurelab::Index k, Pool pool,
                                  featurelab::Index kernel, bool keep_last);

struct Complexity {
  double prompt_time[3], generation_time[3], prompt_memory[3], generation_memory[3];  // standard, SnapKV, GemFilter
};
Complexity gemfilter_complexity(double n, double m, double h, double d, double k, double t, double r, double w);

}  // namespace featurelab::fourier_icl_pack

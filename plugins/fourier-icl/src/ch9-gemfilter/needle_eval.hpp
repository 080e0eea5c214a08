// What gemfilter-selection and kv-eviction share when they score a model on needle-retrieval's test prompts: the
// prompts as token ids, which answers are right, and the NIAH depth grid (Shi 2024 §9.4.1, Fig. 9.4's y axis).
#pragma once

#include <featurelab/dataset.hpp>
#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::fourier_icl_pack {

// The first n prompts of `data` (n × T token ids, row-major).
std::vector<int> prompt_tokens(const featurelab::Dataset& data, featurelab::Index n, featurelab::Index T);
// Per prompt: 1 if the logits' argmax is the label.
std::vector<char> correct(const featurelab::Mat& logits, const featurelab::IVec& y, featurelab::Index n);
double mean(const std::vector<char>& hits);

// Each of the first n prompts' needle depth in [0, 1]: needle-retrieval's needle_depth, or (data without it) the
// needle key's start over the last start T − 3 of a one-token question.
featurelab::VecD needle_depths(const featurelab::Dataset& data, featurelab::Index n, featurelab::Index T);
// The depth grid: the depths in `bins` equal bins; per bin and per method (cols) the share correct. Empty bins read
// NaN.
featurelab::Table depth_table(const featurelab::VecD& depth, featurelab::Index bins, const std::vector<std::string>& methods,
                              const std::vector<std::vector<char>>& hits);

}  // namespace featurelab::fourier_icl_pack

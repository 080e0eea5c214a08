// The KV-cache eviction rules GemFilter is measured against (Shi 2024 ch. 9, §9.4 and App. G.2), each from its own
// paper, applied once to a prompt's cache as ch. 9 compares them (prompt computation in full, then the cache kept to a
// budget of k positions per block and head; App. G.4.2: the same window w for both, pooling kernel as GemFilter's).
//   SnapKV (Li et al. 2024, "SnapKV: LLM knows what you are looking for before generation", §4.1–4.2): the
//     observation window is the prompt's last w queries; each earlier key's vote is the attention the window pays it,
//     summed over the window's rows; the votes are pooled (clustering) and the top k − w earlier keys are kept, with
//     the window itself.
//   H2O (Zhang et al. 2023, "H2O: Heavy-hitter oracle for efficient generative inference of large language models",
//     §3–4): a key's score is the attention accumulated over every query of the prompt; the k − w heaviest keys before
//     the w most recent ones are kept, with those recent ones (the one-shot form used on prompts, no pooling).
// Both read attention probabilities P of one block and head (T × T, causal, rows summing to 1) and return the kept
// positions in ascending order: exactly min(k, T) of them, the last w (the query's included) always among them.
#pragma once

#include "gemfilter.hpp"

#include <featurelab/types.hpp>

#include <vector>

namespace featurelab::fourier_icl_pack {

std::vector<int> snapkv_keep(featurelab::ConstMatRef P, featurelab::Index k, featurelab::Index window, Pool pool,
                             featurelab::Index kernel);
std::vector<int> h2o_keep(featurelab::ConstMatRef P, featurelab::Index k, featurelab::Index recent);

}  // namespace featurelab::fourier_icl_pack

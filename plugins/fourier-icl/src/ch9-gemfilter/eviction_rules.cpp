// SnapKV's and H2O's kept positions from one head's attention (eviction_rules.hpp).
#include "eviction_rules.hpp"

#include <algorithm>

namespace featurelab::fourier_icl_pack {

namespace {

// The budget split: w recent positions (at least the last, at most k) and k − w chosen among the T − w before them.
std::vector<int> with_recent(std::vector<int> chosen, Index T, Index w) {
  for (Index t = T - w; t < T; ++t) chosen.push_back(static_cast<int>(t));
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

}  // namespace

std::vector<int> snapkv_keep(ConstMatRef P, Index k, Index window, Pool pool, Index kernel) {
  const Index T = P.cols(), keep = std::min(k, T), w = std::clamp<Index>(window, 1, keep);
  // Votes of the window's queries (rows T − w … T − 1) for every key; the prefix's pooled votes pick.
  std::vector<Scalar> vote(static_cast<std::size_t>(T), Scalar(0));
  for (Index i = T - w; i < T; ++i) {
    for (Index t = 0; t < T; ++t) vote[static_cast<std::size_t>(t)] += P(i, t);
  }
  // Pooled over the prefix alone (SnapKV pools the votes of the keys before the window).
  const std::vector<double> pooled = pool_scores(vote.data(), T - w, pool, kernel);
  return with_recent(top_k_ascending(pooled, 0, T - w, keep - w), T, w);
}

std::vector<int> h2o_keep(ConstMatRef P, Index k, Index recent) {
  const Index T = P.cols(), keep = std::min(k, T), w = std::clamp<Index>(recent, 1, keep);
  std::vector<double> accumulated(static_cast<std::size_t>(T), 0.0);
  for (Index i = 0; i < T; ++i) {
    for (Index t = 0; t <= i; ++t) accumulated[static_cast<std::size_t>(t)] += static_cast<double>(P(i, t));
  }
  return with_recent(top_k_ascending(accumulated, 0, T - w, keep - w), T, w);
}

}  // namespace featurelab::fourier_icl_pack

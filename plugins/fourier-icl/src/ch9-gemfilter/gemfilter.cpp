#include "gemfilter.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace featurelab::fourier_icl_pack {

Pool parse_pool(const std::string& name) {
  if (name == "avg") return Pool::Avg;
  if (name == "max") return Pool::Max;
  return Pool::None;
}

std::vector<double> pool_scores(const Scalar* scores, Index T, Pool pool, Index kernel) {
  const Index half = kernel / 2;
  std::vector<double> pooled(static_cast<std::size_t>(T));
  for (Index t = 0; t < T; ++t) {
    const Index lo = std::max<Index>(0, t - half), hi = std::min<Index>(T - 1, t + half);
    if (pool == Pool::None) {
      pooled[static_cast<std::size_t>(t)] = scores[t];
    } else if (pool == Pool::Avg) {
      double sum = 0;  // zero padding counted, as avg_pool1d's count_include_pad
      for (Index u = lo; u <= hi; ++u) sum += scores[u];
      pooled[static_cast<std::size_t>(t)] = sum / static_cast<double>(kernel);
    } else {
      double top = -std::numeric_limits<double>::infinity();
      for (Index u = lo; u <= hi; ++u) top = std::max(top, static_cast<double>(scores[u]));
      pooled[static_cast<std::size_t>(t)] = top;
    }
  }
  return pooled;
}

std::vector<int> top_k_ascending(const std::vector<double>& score, Index begin, Index end, Index k) {
  std::vector<int> order(static_cast<std::size_t>(std::max<Index>(0, end - begin)));
  std::iota(order.begin(), order.end(), static_cast<int>(begin));
  const Index keep = std::min<Index>(k, static_cast<Index>(order.size()));
  std::partial_sort(order.begin(), order.begin() + keep, order.end(), [&](int a, int b) {
    const double sa = score[static_cast<std::size_t>(a)], sb = score[static_cast<std::size_t>(b)];
    return sa > sb || (sa == sb && a < b);
  });
  order.resize(static_cast<std::size_t>(keep));
  // The token indices in prompt order: the values (App. G.4.1's printed code returns the permutation).
  std::sort(order.begin(), order.end());
  return order;
}

std::vector<int> gemfilter_select(const Scalar* scores, Index T, Index k, Pool pool, Index kernel, bool keep_last) {
  std::vector<double> pooled = pool_scores(scores, T, pool, kernel);
  if (keep_last) pooled[static_cast<std::size_t>(T - 1)] = std::numeric_limits<double>::infinity();
  return top_k_ascending(pooled, 0, T, k);
}

Complexity gemfilter_complexity(double n, double m, double h, double d, double k, double t, double r, double w) {
  Complexity c{};
  c.prompt_time[0] = m * h * n * n * d;
  c.prompt_time[1] = m * h * n * n * d;
  c.prompt_time[2] = r * h * n * n * d;
  c.generation_time[0] = m * h * (n * t + t * t) * d;
  c.generation_time[1] = m * h * (k * t + t * t) * d;
  c.generation_time[2] = m * h * (k * k + t * t) * d;
  c.prompt_memory[0] = m * w + 2 * m * h * d;  // as printed in Thm 9.3 (no n)
  c.prompt_memory[1] = m * w + 2 * h * n * d + 2 * m * h * k * d;
  c.prompt_memory[2] = r * w + 2 * h * n * d;
  c.generation_memory[0] = m * w + 2 * m * h * (n + t) * d;
  c.generation_memory[1] = m * w + 2 * m * h * (k + t) * d;
  c.generation_memory[2] = m * w + 2 * m * h * (k + t) * d;
  return c;
}

}  // namespace featurelab::fourier_icl_pack

// Scoring helpers of the chapter-9 probes (needle_eval.hpp).
#include "needle_eval.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace featurelab::fourier_icl_pack {

std::vector<int> prompt_tokens(const Dataset& data, Index n, Index T) {
  std::vector<int> tokens(static_cast<std::size_t>(n * T));
  for (Index i = 0; i < n; ++i) {
    for (Index t = 0; t < T; ++t) tokens[static_cast<std::size_t>(i * T + t)] = static_cast<int>(std::lround(static_cast<double>(data.X(i, t))));
  }
  return tokens;
}

std::vector<char> correct(const Mat& logits, const IVec& y, Index n) {
  std::vector<char> hits(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) {
    Index best = 0;
    logits.row(i).maxCoeff(&best);
    hits[static_cast<std::size_t>(i)] = best == y(i) ? 1 : 0;
  }
  return hits;
}

double mean(const std::vector<char>& hits) {
  if (hits.empty()) return std::numeric_limits<double>::quiet_NaN();
  double sum = 0;
  for (char h : hits) sum += h;
  return sum / static_cast<double>(hits.size());
}

VecD needle_depths(const Dataset& data, Index n, Index T) {
  if (data.meta.count("needle_depth")) return data.meta.at("needle_depth").head(n);
  const double last_start = static_cast<double>(std::max<Index>(1, T - 3));
  return (data.meta.at("needle_key").head(n) / last_start).cwiseMax(0.0).cwiseMin(1.0);
}

Table depth_table(const VecD& depth, Index bins, const std::vector<std::string>& methods, const std::vector<std::vector<char>>& hits) {
  Table table;
  table.col_names = methods;
  table.values = MatD::Zero(bins, static_cast<Index>(methods.size()));
  VecD count = VecD::Zero(bins);
  for (Index i = 0; i < static_cast<Index>(hits.empty() ? 0 : hits.front().size()); ++i) {
    const Index bin = std::clamp<Index>(static_cast<Index>(depth(i) * static_cast<double>(bins)), 0, bins - 1);
    count(bin) += 1;
    for (std::size_t m = 0; m < methods.size(); ++m) table.values(bin, static_cast<Index>(m)) += hits[m][static_cast<std::size_t>(i)];
  }
  for (Index b = 0; b < bins; ++b) {
    for (Index m = 0; m < table.values.cols(); ++m) {
      table.values(b, m) = count(b) > 0 ? table.values(b, m) / count(b) : std::numeric_limits<double>::quiet_NaN();
    }
    table.row_names.push_back("depth " + std::to_string(b * 100 / bins) + "-" + std::to_string((b + 1) * 100 / bins) + "%");
  }
  return table;
}

}  // namespace featurelab::fourier_icl_pack

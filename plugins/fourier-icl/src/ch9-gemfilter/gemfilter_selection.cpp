// GemFilter (gemfilter.hpp) on the pack's transformer (common/transformer.hpp), a block at a time.
#include "gemfilter_selection.hpp"

#include "common/transformer.hpp"
#include "needle_eval.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace featurelab::fourier_icl_pack {

Schema GemfilterSelection::schema() {
  Schema s;
  s.integer("k", 8, "tokens kept by the selection").min(1);
  s.integer("filter_layer", Automatic{"the first block whose coverage reaches coverage_threshold (§9.4.3)"},
            "r: the block whose last query row selects (1-based)").min(1);
  s.real("coverage_threshold", 0.95,
         "the share of prompts whose selection must keep the needle for a block to be the filter layer when "
         "filter_layer = \"auto\" (the paper's rule: the first layer that locates the needle)")
      .range(0, 1);
  s.choice("pool", "avg", {"avg", "max", "none"}, "pooling of the scores before top-k (the code: avg; the text: max)");
  s.integer("kernel", 5, "pooling window (odd; padding kernel/2, stride 1)").min(1);
  s.integer("samples", 1000, "test prompts measured (at most the test set)").min(1);
  s.integer("generated", 1, "t: generated tokens, for Thm 9.3's counters (the retrieval answer is one token)").min(1);
  s.integer("depth_bins", 5, "bins of the needle's depth in the depth grid").min(1);
  return s;
}

GemfilterSelection::GemfilterSelection(const Params& params, Context& context)
    : k_(params.integer("k")),
      filter_layer_(params.integer_or_auto("filter_layer")),
      kernel_(params.integer("kernel")),
      samples_(params.integer("samples")),
      generated_(params.integer("generated")),
      depth_bins_(params.integer("depth_bins")),
      threshold_(params.real("coverage_threshold")),
      pool_(parse_pool(params.str("pool"))),
      rng_(context.rng.fork("random-selection")) {
  if (kernel_ % 2 == 0) throw Error("gemfilter-selection: kernel = " + std::to_string(kernel_) + " must be odd (a centred window)");
  if (!context.data.meta.empty() &&
      (std::find(context.data.meta.begin(), context.data.meta.end(), "needle_key") == context.data.meta.end() ||
       std::find(context.data.meta.begin(), context.data.meta.end(), "needle_value") == context.data.meta.end())) {
    throw Error("gemfilter-selection: the data has no needle_key/needle_value columns; use the needle-retrieval distribution");
  }
}

namespace {

static_assert(Mat::IsRowMajor, "gemfilter_select reads a score row as contiguous memory");

// Multiply–adds ×2 of one block over n sequences of length T, as this implementation computes it (full T×T
// attention blocks, masked after the product).
double block_flops(const Transformer& tf, double n, double T) {
  const double D = static_cast<double>(tf.width()), HA = static_cast<double>(tf.heads() * tf.head_width()),
               M = static_cast<double>(tf.mlp_width()), N = n * T;
  return 2 * N * D * 3 * HA + 2 * N * HA * D + 4 * N * D * M + 4 * n * T * T * HA;
}

// The second run of Alg. 2 (line 8) on selections J (n × k prompt indices), at fresh positions 0 … k−1 or at the
// original ones: per prompt, right or wrong.
std::vector<char> rerun(Transformer& tf, const std::vector<int>& tokens, const std::vector<std::vector<int>>& J, Index T, bool original,
                        const IVec& y) {
  const Index n = static_cast<Index>(J.size()), k = static_cast<Index>(J.front().size());
  std::vector<int> selected(static_cast<std::size_t>(n * k)), positions(selected.size());
  for (Index i = 0; i < n; ++i) {
    for (Index q = 0; q < k; ++q) {
      const int j = J[static_cast<std::size_t>(i)][static_cast<std::size_t>(q)];
      selected[static_cast<std::size_t>(i * k + q)] = tokens[static_cast<std::size_t>(i * T + j)];
      positions[static_cast<std::size_t>(i * k + q)] = original ? j : static_cast<int>(q);
    }
  }
  Mat logits(n, tf.outputs());
  tf.run_tokens(selected, positions, n, k, -1, logits);
  return correct(logits, y, n);
}

// App. G.4.5's One-Run: the full run's cache evicted to the same J in every block and head.
Mat one_run(Transformer& tf, const std::vector<int>& tokens, const std::vector<std::vector<int>>& J, Index T) {
  const Index n = static_cast<Index>(J.size()), LH = tf.layers() * tf.heads();
  std::vector<unsigned char> keep(static_cast<std::size_t>(n * LH * T), 0);
  for (Index i = 0; i < n; ++i) {
    for (Index lh = 0; lh < LH; ++lh) {
      for (int j : J[static_cast<std::size_t>(i)]) keep[static_cast<std::size_t>((i * LH + lh) * T + j)] = 1;
    }
  }
  Mat logits(n, tf.outputs());
  tf.run_evicted(tokens, n, T, keep, logits);
  return logits;
}

bool contains(const std::vector<int>& J, double position) {
  return std::binary_search(J.begin(), J.end(), static_cast<int>(position));
}

// App. G.4.4's ablation: the top-k by one query row i of the filter block (only keys 0 … i are visible to it; the
// rest pool as zeros and are never picked before a visible key).
std::vector<int> select_by_row(const Mat& rows, Index s, Index i, Index T, Index k, Pool pool, Index kernel) {
  std::vector<Scalar> row(static_cast<std::size_t>(T), Scalar(0));
  for (Index t = 0; t <= i; ++t) row[static_cast<std::size_t>(t)] = rows(s * T + i, t);
  std::vector<double> pooled = pool_scores(row.data(), T, pool, kernel);
  for (Index t = i + 1; t < T; ++t) pooled[static_cast<std::size_t>(t)] = -std::numeric_limits<double>::infinity();
  return top_k_ascending(pooled, 0, T, k);
}

}  // namespace

void GemfilterSelection::measure(const ProbeInput& in, Measurements& out) {
  auto* tf = dynamic_cast<Transformer*>(&in.model);
  if (tf == nullptr) throw Error("gemfilter-selection: the model must be fourier-icl's transformer");
  const Dataset& data = in.test;
  if (!data.meta.count("needle_key") || !data.meta.count("needle_value")) {
    throw Error("gemfilter-selection: the test data has no needle_key/needle_value columns; use needle-retrieval");
  }
  const Index n = std::min(samples_, data.size()), T = tf->length(), L = tf->layers(), C = tf->outputs();
  const Index k = std::min(k_, T);
  if (n == 0) return;
  if (filter_layer_ && *filter_layer_ > L) {
    throw Error("gemfilter-selection: filter_layer = " + std::to_string(*filter_layer_) + " but the model has " + std::to_string(L) + " blocks");
  }
  const VecD& key_pos = data.meta.at("needle_key");
  const VecD& value_pos = data.meta.at("needle_value");
  const std::vector<int> tokens = prompt_tokens(data, n, T);
  std::vector<int> positions(tokens.size());
  for (std::size_t r = 0; r < positions.size(); ++r) positions[r] = static_cast<int>(static_cast<Index>(r) % T);
  Mat full(n, C), scores(n, T);
  tf->run_tokens(tokens, positions, n, T, -1, full);
  const std::vector<char> hits_full = correct(full, data.y, n);

  // Per block: select (the paper's rule, and with the query forced in), then the four ways to answer from J.
  enum Col { kCoverage, kDistance, kAccuracy, kOneRun, kRerunOriginal, kQueryKept, kKeepQuery, kCols };
  Table layers;
  layers.col_names = {"coverage", "distance", "accuracy", "accuracy_one_run", "accuracy_rerun_original", "query_kept",
                      "accuracy_keep_query"};
  layers.values.setZero(L, kCols);
  std::vector<std::vector<std::vector<int>>> selections(static_cast<std::size_t>(L));
  std::vector<std::vector<std::vector<char>>> hits(static_cast<std::size_t>(L));  // per block: GemFilter, One-Run, original, keep-query
  double valid = 1;
  for (Index r = 0; r < L; ++r) {
    tf->run_tokens(tokens, positions, n, T, r, scores);
    std::vector<std::vector<int>> J(static_cast<std::size_t>(n)), Jq(J.size());
    double covered = 0, distance = 0, query = 0;
    for (Index i = 0; i < n; ++i) {
      J[static_cast<std::size_t>(i)] = gemfilter_select(scores.row(i).data(), T, k, pool_, kernel_, false);
      Jq[static_cast<std::size_t>(i)] = gemfilter_select(scores.row(i).data(), T, k, pool_, kernel_, true);
      const std::vector<int>& Ji = J[static_cast<std::size_t>(i)];
      valid = std::min(valid, static_cast<double>(static_cast<Index>(Ji.size()) == k &&
                                                  std::adjacent_find(Ji.begin(), Ji.end(), [](int a, int b) { return a >= b; }) == Ji.end()));
      covered += contains(Ji, key_pos(i)) && contains(Ji, value_pos(i)) ? 1 : 0;
      query += Ji.back() == T - 1 ? 1 : 0;
      int nearest = static_cast<int>(T);
      for (int j : Ji) nearest = std::min(nearest, std::abs(j - static_cast<int>(value_pos(i))));
      distance += nearest;
    }
    auto& h = hits[static_cast<std::size_t>(r)];
    h.push_back(rerun(*tf, tokens, J, T, false, data.y));
    h.push_back(correct(one_run(*tf, tokens, J, T), data.y, n));
    h.push_back(rerun(*tf, tokens, J, T, true, data.y));
    h.push_back(rerun(*tf, tokens, Jq, T, false, data.y));
    layers.values(r, kCoverage) = covered / static_cast<double>(n);
    layers.values(r, kDistance) = distance / static_cast<double>(n);
    layers.values(r, kQueryKept) = query / static_cast<double>(n);
    layers.values(r, kAccuracy) = mean(h[0]);
    layers.values(r, kOneRun) = mean(h[1]);
    layers.values(r, kRerunOriginal) = mean(h[2]);
    layers.values(r, kKeepQuery) = mean(h[3]);
    layers.row_names.push_back(std::to_string(r + 1));
    selections[static_cast<std::size_t>(r)] = std::move(J);
  }
  // The paper's rule (§9.4.3): the first block that locates the needle; none does: the last block.
  Index filter = filter_layer_.value_or(L);
  if (!filter_layer_) {
    for (Index r = 0; r < L; ++r) {
      if (layers.values(r, kCoverage) >= threshold_) {
        filter = r + 1;
        break;
      }
    }
  }
  const Index f = filter - 1;
  const auto& J = selections[static_cast<std::size_t>(f)];
  const auto& h = hits[static_cast<std::size_t>(f)];
  out.scalar("filter_layer", static_cast<double>(filter));
  out.scalar("accuracy_full", mean(hits_full));
  out.scalar("accuracy", layers.values(f, kAccuracy));
  out.scalar("accuracy_one_run", layers.values(f, kOneRun));
  out.scalar("accuracy_rerun_original", layers.values(f, kRerunOriginal));
  out.scalar("accuracy_keep_query", layers.values(f, kKeepQuery));
  out.scalar("coverage", layers.values(f, kCoverage));
  out.scalar("distance", layers.values(f, kDistance));
  out.scalar("query_kept", layers.values(f, kQueryKept));
  out.scalar("selection_valid", valid);
  out.scalar("kept", static_cast<double>(k) / static_cast<double>(T));

  // Why the paper's rule loses answers: its accuracy where J kept the query token and where it did not; the query's
  // rank among the pooled scores (0 = the top) and whether the raw, unpooled scores would have kept it.
  {
    tf->run_tokens(tokens, positions, n, T, f, scores);
    std::vector<char> kept_hits, dropped_hits;
    double rank = 0, unpooled = 0;
    for (Index i = 0; i < n; ++i) {
      const bool kept = J[static_cast<std::size_t>(i)].back() == T - 1;
      (kept ? kept_hits : dropped_hits).push_back(h[0][static_cast<std::size_t>(i)]);
      const std::vector<double> pooled = pool_scores(scores.row(i).data(), T, pool_, kernel_);
      const double own = pooled[static_cast<std::size_t>(T - 1)];
      for (Index t = 0; t + 1 < T; ++t) rank += pooled[static_cast<std::size_t>(t)] > own ? 1 : 0;
      unpooled += gemfilter_select(scores.row(i).data(), T, k, Pool::None, kernel_, false).back() == T - 1 ? 1 : 0;
    }
    out.scalar("accuracy_query_kept", mean(kept_hits));
    out.scalar("accuracy_query_dropped", mean(dropped_hits));
    out.scalar("query_rank", rank / static_cast<double>(n));
    out.scalar("query_kept_unpooled", unpooled / static_cast<double>(n));
  }

  // App. G.4.4: the same selection by another query row of the filter block, rerun as GemFilter.
  {
    Mat rows;
    tf->run_score_rows(tokens, positions, n, T, f, rows);
    std::vector<std::vector<int>> middle(static_cast<std::size_t>(n)), largest(middle.size());
    double covered_middle = 0, covered_largest = 0;
    for (Index i = 0; i < n; ++i) {
      Index best = 0;
      double best_norm = -1;
      for (Index q = 0; q < T; ++q) {
        const double norm = static_cast<double>(rows.row(i * T + q).head(q + 1).norm());
        if (norm > best_norm) best_norm = norm, best = q;
      }
      middle[static_cast<std::size_t>(i)] = select_by_row(rows, i, (T - 1) / 2, T, k, pool_, kernel_);
      largest[static_cast<std::size_t>(i)] = select_by_row(rows, i, best, T, k, pool_, kernel_);
      const auto covers = [&](const std::vector<int>& S) { return contains(S, key_pos(i)) && contains(S, value_pos(i)) ? 1.0 : 0.0; };
      covered_middle += covers(middle[static_cast<std::size_t>(i)]);
      covered_largest += covers(largest[static_cast<std::size_t>(i)]);
    }
    out.scalar("accuracy_middle_row", mean(rerun(*tf, tokens, middle, T, false, data.y)));
    out.scalar("coverage_middle_row", covered_middle / static_cast<double>(n));
    out.scalar("accuracy_l2_row", mean(rerun(*tf, tokens, largest, T, false, data.y)));
    out.scalar("coverage_l2_row", covered_largest / static_cast<double>(n));
  }

  // Baseline: k − 1 random tokens and the query, at fresh positions.
  {
    std::vector<std::vector<int>> random(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) {
      const std::vector<Index> order = rng_.permutation(T - 1);
      std::vector<int> S(order.begin(), order.begin() + (k - 1));
      S.push_back(static_cast<int>(T - 1));
      std::sort(S.begin(), S.end());
      random[static_cast<std::size_t>(i)] = std::move(S);
    }
    out.scalar("accuracy_random", mean(rerun(*tf, tokens, random, T, false, data.y)));
  }
  // Alg. 2 with k = n: the selection is the whole prompt and the rerun is the full model, exactly; and One-Run with
  // J = every token evicts nothing: the full run, exactly.
  {
    std::vector<std::vector<int>> all(static_cast<std::size_t>(n));
    std::vector<int> all_tokens;
    for (Index i = 0; i < n; ++i) {
      all[static_cast<std::size_t>(i)] = gemfilter_select(scores.row(i).data(), T, T, pool_, kernel_, false);
      for (int j : all[static_cast<std::size_t>(i)]) all_tokens.push_back(tokens[static_cast<std::size_t>(i * T + j)]);
    }
    Mat logits(n, C);
    tf->run_tokens(all_tokens, positions, n, T, -1, logits);
    out.scalar("full_k_max_difference", static_cast<double>((logits - full).cwiseAbs().maxCoeff()));
    out.scalar("one_run_all_max_difference", static_cast<double>((one_run(*tf, tokens, all, T) - full).cwiseAbs().maxCoeff()));
  }
  // The depth grid at the filter layer (Fig. 9.4's y axis): per depth bin, each way of answering.
  out.table("depth", depth_table(needle_depths(data, n, T), depth_bins_, {"full", "gemfilter", "one_run", "rerun_original", "keep_query"},
                                 {hits_full, h[0], h[1], h[2], h[3]}));

  // Thm 9.3 beside this implementation's FLOPs (prompt phase: blocks 1 … r−1, block r's Q and K and the last row's
  // scores, then the whole model on k tokens; the standard prompt phase is the whole model on n tokens).
  double weights = 0;
  for (const ParamBlock& b : tf->blocks()) {
    if (b.name.rfind("l0.", 0) == 0) weights += static_cast<double>(b.rows * b.cols);
  }
  const double hd = static_cast<double>(tf->heads()), d = static_cast<double>(tf->head_width());
  const Complexity c = gemfilter_complexity(static_cast<double>(T), static_cast<double>(L), hd, d, static_cast<double>(k),
                                            static_cast<double>(generated_), static_cast<double>(filter), weights);
  Table table;
  table.row_names = {"standard", "snapkv", "gemfilter"};
  table.col_names = {"prompt_time", "generation_time", "prompt_memory", "generation_memory"};
  table.values.resize(3, 4);
  for (int i = 0; i < 3; ++i) table.values.row(i) << c.prompt_time[i], c.generation_time[i], c.prompt_memory[i], c.generation_memory[i];
  out.scalar("prompt_time_ratio", c.prompt_time[2] / c.prompt_time[0]);
  out.scalar("generation_time_ratio", c.generation_time[2] / c.generation_time[0]);
  const double Tn = static_cast<double>(T), D = static_cast<double>(tf->width()), HA = hd * d;
  const double standard = static_cast<double>(L) * block_flops(*tf, 1, Tn);
  const double gemfilter = static_cast<double>(filter - 1) * block_flops(*tf, 1, Tn) + 2 * Tn * D * 2 * HA + 2 * Tn * HA +
                           static_cast<double>(L) * block_flops(*tf, 1, static_cast<double>(k));
  out.scalar("flops_ratio", gemfilter / standard);
  out.table("complexity", std::move(table));
  out.table("layers", std::move(layers));
}

}  // namespace featurelab::fourier_icl_pack

// GemFilter (gemfilter.hpp) on the pack's transformer (common/transformer.hpp), a block at a time.
#include "gemfilter_selection.hpp"
#include "common/transformer.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>

namespace featurelab::fourier_icl_pack {

Schema GemfilterSelection::schema() {
  Schema s;
  s.integer("k", 8, "tokens kept by the selection").min(1);
  s.integer("filter_layer", Automatic{"the first block whose coverage reaches coverage_threshold"},
            "r: the block whose last query row selects (1-based)").min(1);
  s.real("coverage_threshold", 0.95, "the coverage that picks the filter layer when filter_layer = \"auto\"").range(0, 1);
  s.choice("pool", "avg", {"avg", "max", "none"}, "pooling of the scores before top-k (the code: avg; the text: max)");
  s.integer("kernel", 5, "pooling window (odd; padding kernel/2, stride 1)").min(1);
  s.integer("samples", 1000, "test prompts measured (at most the test set)").min(1);
  s.integer("generated", 1, "t: generated tokens, for Thm 9.3's counters (the retrieval answer is one token)").min(1);
  return s;
}

GemfilterSelection::GemfilterSelection(const Params& params, Context& context)
    : k_(params.integer("k")),
      filter_layer_(params.integer_or_auto("filter_layer")),
      kernel_(params.integer("kernel")),
      samples_(params.integer("samples")),
      generated_(params.integer("generated")),
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

double accuracy(const Mat& logits, const IVec& y, Index n) {
  double correct = 0;
  for (Index i = 0; i < n; ++i) {
    Index best = 0;
    logits.row(i).maxCoeff(&best);
    correct += best == y(i) ? 1 : 0;
  }
  return correct / static_cast<double>(n);
}

// Multiply–adds ×2 of one block over n sequences of length T, as this implementation computes it (full T×T
// attention blocks, masked after the product).
double block_flops(const Transformer& tf, double n, double T) {
  const double D = static_cast<double>(tf.width()), HA = static_cast<double>(tf.heads() * tf.head_width()),
               M = static_cast<double>(tf.mlp_width()), N = n * T;
  return 2 * N * D * 3 * HA + 2 * N * HA * D + 4 * N * D * M + 4 * n * T * T * HA;
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
  const VecD& key_pos = data.meta.at("needle_key");
  const VecD& value_pos = data.meta.at("needle_value");

  std::vector<int> tokens(static_cast<std::size_t>(n * T)), positions(tokens.size());
  for (Index i = 0; i < n; ++i) {
    for (Index t = 0; t < T; ++t) {
      tokens[static_cast<std::size_t>(i * T + t)] = static_cast<int>(std::lround(static_cast<double>(data.X(i, t))));
      positions[static_cast<std::size_t>(i * T + t)] = static_cast<int>(t);
    }
  }
  Mat full(n, C), logits(n, C), scores(n, T);
  tf->run_tokens(tokens, positions, n, T, -1, full);
  const double accuracy_full = accuracy(full, data.y, n);

  // Per block: select, then rerun at fresh and at original positions.
  Table layers;
  layers.col_names = {"coverage", "distance", "accuracy", "accuracy_one_run", "query_kept", "accuracy_keep_query"};
  layers.values.setZero(L, 6);
  std::vector<int> selected(static_cast<std::size_t>(n * k)), fresh(selected.size()), original(selected.size()),
      selected_with_query(selected.size());
  double valid = 1;
  for (Index r = 0; r < L; ++r) {
    tf->run_tokens(tokens, positions, n, T, r, scores);
    double covered = 0, distance = 0, query = 0;
    for (Index i = 0; i < n; ++i) {
      const std::vector<int> J = gemfilter_select(scores.row(i).data(), T, k, pool_, kernel_, false);
      const std::vector<int> Jq = gemfilter_select(scores.row(i).data(), T, k, pool_, kernel_, true);
      valid = std::min(valid, static_cast<double>(static_cast<Index>(J.size()) == k && std::adjacent_find(J.begin(), J.end(), [](int a, int b) { return a >= b; }) == J.end()));
      const auto has = [&](double pos) { return std::binary_search(J.begin(), J.end(), static_cast<int>(pos)); };
      covered += has(key_pos(i)) && has(value_pos(i)) ? 1 : 0;
      query += J.back() == T - 1 ? 1 : 0;
      int nearest = static_cast<int>(T);
      for (int j : J) nearest = std::min(nearest, std::abs(j - static_cast<int>(value_pos(i))));
      distance += nearest;
      for (Index q = 0; q < k; ++q) {
        const auto at = static_cast<std::size_t>(i * k + q);
        selected[at] = tokens[static_cast<std::size_t>(i * T + J[static_cast<std::size_t>(q)])];
        fresh[at] = static_cast<int>(q);
        original[at] = J[static_cast<std::size_t>(q)];
        selected_with_query[at] = tokens[static_cast<std::size_t>(i * T + Jq[static_cast<std::size_t>(q)])];
      }
    }
    layers.values(r, 0) = covered / static_cast<double>(n);
    layers.values(r, 1) = distance / static_cast<double>(n);
    layers.values(r, 4) = query / static_cast<double>(n);
    tf->run_tokens(selected, fresh, n, k, -1, logits);
    layers.values(r, 2) = accuracy(logits, data.y, n);
    tf->run_tokens(selected, original, n, k, -1, logits);
    layers.values(r, 3) = accuracy(logits, data.y, n);
    tf->run_tokens(selected_with_query, fresh, n, k, -1, logits);
    layers.values(r, 5) = accuracy(logits, data.y, n);
    layers.row_names.push_back(std::to_string(r + 1));
  }
  Index filter = filter_layer_.value_or(0);
  if (filter > L) {
    throw Error("gemfilter-selection: filter_layer = " + std::to_string(filter) + " but the model has " + std::to_string(L) + " blocks");
  }
  if (!filter_layer_) {
    filter = L;
    for (Index r = 0; r < L; ++r) {
      if (layers.values(r, 0) >= threshold_) {
        filter = r + 1;
        break;
      }
    }
  }

  // Baseline: k − 1 random tokens and the query, at fresh positions.
  {
    std::vector<Index> pool;
    for (Index i = 0; i < n; ++i) {
      pool = rng_.permutation(T - 1);
      std::vector<int> J(pool.begin(), pool.begin() + (k - 1));
      J.push_back(static_cast<int>(T - 1));
      std::sort(J.begin(), J.end());
      for (Index q = 0; q < k; ++q) {
        selected[static_cast<std::size_t>(i * k + q)] = tokens[static_cast<std::size_t>(i * T + J[static_cast<std::size_t>(q)])];
        fresh[static_cast<std::size_t>(i * k + q)] = static_cast<int>(q);
      }
    }
    tf->run_tokens(selected, fresh, n, k, -1, logits);
    out.scalar("accuracy_random", accuracy(logits, data.y, n));
  }
  // Alg. 2 with k = n: the selection is the whole prompt and the rerun is the full model, exactly.
  {
    std::vector<int> all;
    for (Index i = 0; i < n; ++i) {
      const std::vector<int> J = gemfilter_select(scores.row(i).data(), T, T, pool_, kernel_, false);
      for (int j : J) all.push_back(tokens[static_cast<std::size_t>(i * T + j)]);
    }
    tf->run_tokens(all, positions, n, T, -1, logits);
    out.scalar("full_k_max_difference", static_cast<double>((logits - full).cwiseAbs().maxCoeff()));
  }

  const Index f = filter - 1;
  out.scalar("filter_layer", static_cast<double>(filter));
  out.scalar("accuracy_full", accuracy_full);
  out.scalar("accuracy", layers.values(f, 2));
  out.scalar("accuracy_one_run", layers.values(f, 3));
  out.scalar("accuracy_keep_query", layers.values(f, 5));
  out.scalar("coverage", layers.values(f, 0));
  out.scalar("distance", layers.values(f, 1));
  out.scalar("query_kept", layers.values(f, 4));
  out.scalar("selection_valid", valid);
  out.scalar("kept", static_cast<double>(k) / static_cast<double>(T));

  // Thm 9.3 beside this implementation's FLOPs (prompt phase: blocks 1 … r−1, block r's Q and K and the last row's
  // scores, then the whole model on k tokens; the standard prompt phase is the whole model on n tokens).
  double weights = 0;
  for (const ParamBlock& b : tf->blocks()) {
    if (b.name.rfind("l0.", 0) == 0) weights += static_cast<double>(b.rows * b.cols);
  }
  const double h = static_cast<double>(tf->heads()), d = static_cast<double>(tf->head_width());
  const Complexity c = gemfilter_complexity(static_cast<double>(T), static_cast<double>(L), h, d, static_cast<double>(k),
                                            static_cast<double>(generated_), static_cast<double>(filter), weights);
  Table table;
  table.row_names = {"standard", "snapkv", "gemfilter"};
  table.col_names = {"prompt_time", "generation_time", "prompt_memory", "generation_memory"};
  table.values.resize(3, 4);
  for (int i = 0; i < 3; ++i) table.values.row(i) << c.prompt_time[i], c.generation_time[i], c.prompt_memory[i], c.generation_memory[i];
  out.scalar("prompt_time_ratio", c.prompt_time[2] / c.prompt_time[0]);
  out.scalar("generation_time_ratio", c.generation_time[2] / c.generation_time[0]);
  const double Tn = static_cast<double>(T), D = static_cast<double>(tf->width()), HA = h * d;
  const double standard = static_cast<double>(L) * block_flops(*tf, 1, Tn);
  const double gemfilter = static_cast<double>(filter - 1) * block_flops(*tf, 1, Tn) + 2 * Tn * D * 2 * HA + 2 * Tn * HA +
                           static_cast<double>(L) * block_flops(*tf, 1, static_cast<double>(k));
  out.scalar("flops_ratio", gemfilter / standard);
  out.table("complexity", std::move(table));
  out.table("layers", std::move(layers));
}

}  // namespace featurelab::fourier_icl_pack

// SnapKV and H2O (eviction_rules.hpp) as KV eviction of the transformer's full run (kv_eviction.hpp).
#include "kv_eviction.hpp"

#include "common/transformer.hpp"
#include "eviction_rules.hpp"
#include "needle_eval.hpp"

#include <featurelab/error.hpp>

#include <algorithm>

namespace featurelab::fourier_icl_pack {

Schema KvEviction::schema() {
  Schema s;
  s.integer("k", 8, "cached positions per block and head (the budget; GemFilter's k)").min(1);
  s.integer("window", 2,
            "w: SnapKV's observation window and H2O's recent tokens (App. G.4.2 uses 32 of a 1024 budget for both); "
            "the last w positions, the query's included, are always kept")
      .min(1);
  s.choice("pool", "avg", {"avg", "max", "none"}, "pooling of SnapKV's votes (as GemFilter's scores)");
  s.integer("kernel", 5, "pooling window (odd)").min(1);
  s.integer("samples", 1000, "test prompts measured (at most the test set)").min(1);
  s.integer("depth_bins", 5, "bins of the needle's depth in the depth grid").min(1);
  return s;
}

KvEviction::KvEviction(const Params& params, Context& context)
    : k_(params.integer("k")),
      window_(params.integer("window")),
      kernel_(params.integer("kernel")),
      samples_(params.integer("samples")),
      depth_bins_(params.integer("depth_bins")),
      pool_(parse_pool(params.str("pool"))) {
  if (kernel_ % 2 == 0) throw Error("kv-eviction: kernel = " + std::to_string(kernel_) + " must be odd (a centred window)");
  if (window_ > k_) throw Error("kv-eviction: window = " + std::to_string(window_) + " exceeds the budget k = " + std::to_string(k_));
  if (!context.data.meta.empty() &&
      std::find(context.data.meta.begin(), context.data.meta.end(), "needle_key") == context.data.meta.end()) {
    throw Error("kv-eviction: the data has no needle_key/needle_value columns; use the needle-retrieval distribution");
  }
}

void KvEviction::measure(const ProbeInput& in, Measurements& out) {
  auto* tf = dynamic_cast<Transformer*>(&in.model);
  if (tf == nullptr) throw Error("kv-eviction: the model must be fourier-icl's transformer");
  const Dataset& data = in.test;
  if (!data.meta.count("needle_key") || !data.meta.count("needle_value")) {
    throw Error("kv-eviction: the test data has no needle_key/needle_value columns; use needle-retrieval");
  }
  const Index n = std::min(samples_, data.size()), T = tf->length(), L = tf->layers(), H = tf->heads();
  const Index k = std::min(k_, T);
  if (n == 0) return;
  const VecD& key_pos = data.meta.at("needle_key");
  const VecD& value_pos = data.meta.at("needle_value");
  const std::vector<int> tokens = prompt_tokens(data, n, T);
  std::vector<int> positions(tokens.size());
  for (std::size_t r = 0; r < positions.size(); ++r) positions[r] = static_cast<int>(static_cast<Index>(r) % T);
  // The prompt computation in full: every block's attention probabilities (n·H·T × T).
  Mat full(n, tf->outputs());
  tf->run_tokens(tokens, positions, n, T, -1, full);
  std::vector<Mat> attention;
  for (Index l = 0; l < L; ++l) attention.push_back(tf->attention(l));
  const std::vector<char> hits_full = correct(full, data.y, n);

  const std::vector<std::string> methods = {"snapkv", "h2o"};
  std::vector<std::vector<char>> hits = {hits_full};
  double budget_valid = 1;
  for (const std::string& method : methods) {
    std::vector<unsigned char> keep(static_cast<std::size_t>(n * L * H * T), 0);
    double needle = 0;
    for (Index i = 0; i < n; ++i) {
      for (Index l = 0; l < L; ++l) {
        for (Index h = 0; h < H; ++h) {
          const auto P = attention[static_cast<std::size_t>(l)].middleRows((i * H + h) * T, T);
          const std::vector<int> S = method == "snapkv" ? snapkv_keep(P, k, window_, pool_, kernel_) : h2o_keep(P, k, window_);
          budget_valid = std::min(budget_valid, static_cast<double>(static_cast<Index>(S.size()) == k));
          for (int j : S) keep[static_cast<std::size_t>(((i * L + l) * H + h) * T + j)] = 1;
          const bool has_key = std::binary_search(S.begin(), S.end(), static_cast<int>(key_pos(i)));
          const bool has_value = std::binary_search(S.begin(), S.end(), static_cast<int>(value_pos(i)));
          needle += has_key && has_value ? 1 : 0;
        }
      }
    }
    Mat logits(n, tf->outputs());
    tf->run_evicted(tokens, n, T, keep, logits);
    hits.push_back(correct(logits, data.y, n));
    out.scalar("accuracy_" + method, mean(hits.back()));
    out.scalar("needle_kept_" + method, needle / static_cast<double>(n * L * H));
  }
  out.scalar("budget_valid", budget_valid);
  // Nothing evicted (every flag kept) is the full run, exactly.
  {
    Mat logits(n, tf->outputs());
    tf->run_evicted(tokens, n, T, std::vector<unsigned char>(static_cast<std::size_t>(n * L * H * T), 1), logits);
    out.scalar("all_kept_max_difference", static_cast<double>((logits - full).cwiseAbs().maxCoeff()));
  }
  out.table("depth", depth_table(needle_depths(data, n, T), depth_bins_, {"full", "snapkv", "h2o"}, hits));
}

}  // namespace featurelab::fourier_icl_pack

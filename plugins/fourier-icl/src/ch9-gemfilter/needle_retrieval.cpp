#include "needle_retrieval.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace featurelab::fourier_icl_pack {

Schema NeedleRetrieval::schema() {
  Schema s;
  s.integer("length", 32, "tokens per prompt, the query key included").min(4);
  s.integer("values", 16, "value (and haystack) tokens").min(2);
  s.integer("keys", 8, "key tokens").min(1);
  s.integer("pairs", 2, "key–value needles per prompt (one is queried)").min(1);
  s.real("depth", -1, "where the queried needle sits, as a fraction of the haystack; < 0: uniform").max(1);
  s.integer("question", 1,
            "tokens of the question at the prompt's end: the query key, then question − 1 copies of an answer marker "
            "(an LLM prompt ends in a question and a chat template, not in one token)")
      .min(1);
  return s;
}

NeedleRetrieval::NeedleRetrieval(const Params& params, Context&)
    : length_(params.integer("length")),
      values_(static_cast<int>(params.integer("values"))),
      keys_(static_cast<int>(params.integer("keys"))),
      pairs_(static_cast<int>(params.integer("pairs"))),
      depth_(params.real("depth")),
      question_(params.integer("question")) {
  if (pairs_ > keys_) {
    throw Error("needle-retrieval: pairs = " + std::to_string(pairs_) + " needles need distinct keys, but keys = " +
                std::to_string(keys_) + "; raise keys or lower pairs");
  }
  // Needles take 2 of the length − 1 haystack slots each; leave at least as much haystack as needle.
  if (4 * static_cast<Index>(pairs_) > length_ - question_) {
    throw Error("needle-retrieval: " + std::to_string(pairs_) + " needles do not fit a haystack of " + std::to_string(length_ - question_) +
                " tokens with room to spare; raise length to at least " + std::to_string(4 * pairs_ + question_));
  }
}

double NeedleRetrieval::dimension(const Params& params) {
  return double(params.integer("length"));
}

DataSpec NeedleRetrieval::spec() const {
  DataSpec s;
  s.dim = length_;
  s.classes = values_;
  s.shape.dims = {length_};
  s.meta = {"needle_key", "needle_value", "needle_depth"};
  return s;
}

void NeedleRetrieval::sample(Index n, Split, Rng& rng, Dataset& out) {
  const Index hay = length_ - question_, slots = hay - 1;  // a needle starts at 0 … hay − 2
  out.resize(n, length_);
  out.classes = values_;
  out.shape.dims = {length_};
  VecD& needle_key = out.meta["needle_key"];
  VecD& needle_value = out.meta["needle_value"];
  VecD& needle_depth = out.meta["needle_depth"];
  needle_key.resize(n);
  needle_value.resize(n);
  needle_depth.resize(n);
  std::vector<char> taken(static_cast<std::size_t>(hay));
  std::vector<int> key_of(static_cast<std::size_t>(keys_));
  for (Index i = 0; i < n; ++i) {
    for (Index t = 0; t < hay; ++t) out.X(i, t) = static_cast<Scalar>(rng.integer(0, values_ - 1));
    std::fill(taken.begin(), taken.end(), 0);
    // Distinct keys: the first `pairs` of a partial Fisher–Yates shuffle.
    for (int j = 0; j < keys_; ++j) key_of[static_cast<std::size_t>(j)] = j;
    for (int j = 0; j < pairs_; ++j) std::swap(key_of[static_cast<std::size_t>(j)], key_of[static_cast<std::size_t>(rng.integer(j, keys_ - 1))]);
    for (int j = 0; j < pairs_; ++j) {
      Index start = 0;
      if (j == 0 && depth_ >= 0) {
        start = static_cast<Index>(std::lround(depth_ * static_cast<double>(slots - 1)));
      } else {
        do start = rng.integer(0, slots - 1); while (taken[static_cast<std::size_t>(start)] || taken[static_cast<std::size_t>(start + 1)]);
      }
      taken[static_cast<std::size_t>(start)] = taken[static_cast<std::size_t>(start + 1)] = 1;
      const int key = values_ + key_of[static_cast<std::size_t>(j)];
      const int value = static_cast<int>(rng.integer(0, values_ - 1));
      out.X(i, start) = static_cast<Scalar>(key);
      out.X(i, start + 1) = static_cast<Scalar>(value);
      if (j == 0) {  // the queried needle is placed first, so a fixed depth always finds room
        out.X(i, hay) = static_cast<Scalar>(key);
        for (Index q = hay + 1; q < length_; ++q) out.X(i, q) = static_cast<Scalar>(values_ + keys_);  // the answer marker
        out.y(i) = value;
        needle_depth(i) = static_cast<double>(start) / static_cast<double>(std::max<Index>(1, slots - 1));
        needle_key(i) = static_cast<double>(start);
        needle_value(i) = static_cast<double>(start + 1);
      }
    }
  }
}

FeatureSet NeedleRetrieval::features() const {
  Mat vocab(1, 1);
  vocab << static_cast<Scalar>(values_ + keys_ + (question_ > 1 ? 1 : 0));
  return {{"vocab", vocab}};
}

}  // namespace featurelab::fourier_icl_pack

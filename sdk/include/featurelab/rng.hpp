// Per-component seeded random numbers.
//
// Each component gets its own Rng seeded from (job seed, component path), so adding a component,
// reordering jobs or changing --jobs never shifts another component's stream. The engine is
// std::mt19937_64 (output fixed by the standard) and the distributions are Boost.Random's
// (algorithms fixed by Boost, unlike std::normal_distribution's), so a seed gives the same
// numbers with any standard library.
#pragma once

#include <featurelab/types.hpp>

#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

namespace featurelab {

// 64-bit FNV-1a followed by a splitmix64 finaliser: stable across platforms and releases.
std::uint64_t stable_hash(std::string_view text, std::uint64_t seed = 0);
std::uint64_t derive_seed(std::uint64_t parent, std::string_view label);

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0) : seed_(seed), engine_(seed) {}

  std::uint64_t seed() const { return seed_; }
  // An independent generator for a named sub-stream (e.g. "init", "train-data").
  Rng fork(std::string_view label) const { return Rng(derive_seed(seed_, label)); }

  double uniform();                              // [0, 1)
  double uniform(double lo, double hi);          // [lo, hi)
  double normal(double mean = 0.0, double stddev = 1.0);
  double beta(double a, double b);
  bool bernoulli(double p);
  std::int64_t integer(std::int64_t lo, std::int64_t hi);  // inclusive range

  void fill_normal(MatRef out, double stddev = 1.0);
  void fill_uniform(MatRef out, double lo, double hi);
  std::vector<Index> permutation(Index n);
  void shuffle(std::vector<Index>& items);

  std::mt19937_64& engine() { return engine_; }

 private:
  std::uint64_t seed_;
  std::mt19937_64 engine_;
};

}  // namespace featurelab

// Seeded random streams: stable hashing for seed derivation, Boost.Random distributions.
#include <featurelab/rng.hpp>

#include <boost/random/bernoulli_distribution.hpp>
#include <boost/random/beta_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>

#include <numeric>

namespace featurelab {

std::uint64_t stable_hash(std::string_view text, std::uint64_t seed) {
  std::uint64_t h = 1469598103934665603ULL ^ (seed * 0x9E3779B97F4A7C15ULL);
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  // splitmix64 finaliser: spreads nearby inputs over the whole range.
  h ^= h >> 30;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 27;
  h *= 0x94D049BB133111EBULL;
  h ^= h >> 31;
  return h;
}

std::uint64_t derive_seed(std::uint64_t parent, std::string_view label) {
  return stable_hash(label, parent);
}

double Rng::uniform() { return boost::random::uniform_01<double>()(engine_); }

double Rng::uniform(double lo, double hi) {
  return boost::random::uniform_real_distribution<double>(lo, hi)(engine_);
}

double Rng::normal(double mean, double stddev) {
  return boost::random::normal_distribution<double>(mean, stddev)(engine_);
}

double Rng::beta(double a, double b) {
  return boost::random::beta_distribution<double>(a, b)(engine_);
}

bool Rng::bernoulli(double p) { return boost::random::bernoulli_distribution<double>(p)(engine_); }

std::int64_t Rng::integer(std::int64_t lo, std::int64_t hi) {
  return boost::random::uniform_int_distribution<std::int64_t>(lo, hi)(engine_);
}

void Rng::fill_normal(MatRef out, double stddev) {
  boost::random::normal_distribution<double> normal(0.0, stddev);
  for (Index i = 0; i < out.rows(); ++i) {
    for (Index j = 0; j < out.cols(); ++j) out(i, j) = static_cast<Scalar>(normal(engine_));
  }
}

void Rng::fill_uniform(MatRef out, double lo, double hi) {
  boost::random::uniform_real_distribution<double> uniform(lo, hi);
  for (Index i = 0; i < out.rows(); ++i) {
    for (Index j = 0; j < out.cols(); ++j) out(i, j) = static_cast<Scalar>(uniform(engine_));
  }
}

std::vector<Index> Rng::permutation(Index n) {
  std::vector<Index> items(static_cast<std::size_t>(n));
  std::iota(items.begin(), items.end(), Index(0));
  shuffle(items);
  return items;
}

void Rng::shuffle(std::vector<Index>& items) {
  // Fisher–Yates with Boost's integer distribution: std::shuffle's algorithm is unspecified.
  for (std::size_t i = items.size(); i > 1; --i) {
    auto j = static_cast<std::size_t>(integer(0, static_cast<std::int64_t>(i - 1)));
    std::swap(items[i - 1], items[j]);
  }
}

}  // namespace featurelab

// Marsaglia's polar method in blocks of kCandidates: (v1, v2) uniform on [−1, 1)² from 32 bits each, kept when
// s = v1² + v2² ∈ (0, 1) (π/4 of them), giving the pair σ·v·√(−2 ln s / s); the log, root and quotient of a block
// as Eigen packet operations in double, the kept pairs then copied out in order. No sine or cosine (Eigen 3.4's
// float ones are not inlined). Every block is computed whole, so each value takes the same path wherever it sits.
#include "gaussian_noise.hpp"

#include <algorithm>
#include <vector>

namespace featurelab::contrastive_decoupling_pack {

namespace {

constexpr Index kCandidates = 512;

// splitmix64's finaliser (Steele, Lea & Flood 2014) of key + (counter + 1)·γ: a counter-based stream.
inline std::uint64_t mix(std::uint64_t key, std::uint64_t counter) {
  std::uint64_t z = key + (counter + 1) * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

void fill_gaussian_noise(Mat& out, double stddev, std::uint64_t key) {
  Scalar* x = out.data();
  const Index size = out.size();
  Eigen::ArrayXd v1(kCandidates), v2(kCandidates), s(kCandidates), factor(kCandidates);
  std::vector<Scalar> kept(static_cast<std::size_t>(2 * kCandidates + 2));
  Index filled = 0;
  for (std::uint64_t block = 0; filled < size; ++block) {
    for (Index j = 0; j < kCandidates; ++j) {
      const std::uint64_t bits = mix(key, block * kCandidates + static_cast<std::uint64_t>(j));
      // 32 bits each, centred: v ∈ [−1, 1) on a grid of 2^−31.
      v1[j] = static_cast<double>(static_cast<std::int64_t>(bits >> 32) - (std::int64_t(1) << 31)) * 0x1.0p-31;
      v2[j] = static_cast<double>(static_cast<std::int64_t>(bits & 0xffffffffULL) - (std::int64_t(1) << 31)) * 0x1.0p-31;
    }
    s = v1.square() + v2.square();
    // Rejected candidates (s = 0 or s >= 1) come out inf or NaN here and are not kept; no select, which Eigen 3.4
    // evaluates one value at a time.
    factor = (-2.0 * s.log() / s).sqrt() * stddev;
    // Kept pairs written without a branch: every pair is stored at `count` and the count moves on when it is kept.
    Index count = 0;
    for (Index j = 0; j < kCandidates; ++j) {
      kept[static_cast<std::size_t>(count)] = static_cast<Scalar>(v1[j] * factor[j]);
      kept[static_cast<std::size_t>(count + 1)] = static_cast<Scalar>(v2[j] * factor[j]);
      count += (s[j] > 0.0 && s[j] < 1.0) ? 2 : 0;
    }
    const Index take = std::min(count, size - filled);
    std::copy(kept.begin(), kept.begin() + take, x + filled);
    filled += take;
  }
}

}  // namespace featurelab::contrastive_decoupling_pack

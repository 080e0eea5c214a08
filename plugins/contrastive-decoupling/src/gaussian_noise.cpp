// Marsaglia's polar method in blocks of kCandidates: (v1, v2) uniform on [−1, 1)² from 32 bits each, kept when
// s = v1² + v2² ∈ (0, 1) (π/4 of them), giving the pair σ·v·√(−2 ln s / s); the log, root and quotient of a block
// as Eigen packet operations in double, the kept pairs then copied out in order. No sine or cosine (Eigen 3.4's
// float ones are not inlined). Every block is computed whole, so each value takes the same path wherever it sits.
#include "gaussian_noise.hpp"

#include <algorithm>
#include <vector>

// The kept pairs' compaction: with AVX-512 eight candidates at a time, compressed in a register; the scalar loop
// otherwise. Each value is the same double product rounded to float either way, so the bits do not change.
#if defined(__AVX512F__) && !defined(FEATURELAB_SCALAR_DOUBLE)
#define FEATURELAB_NOISE_COMPRESS 1
#include <immintrin.h>
#endif

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

// kept ← (v1_j·f_j, v2_j·f_j) for the candidates with s_j ∈ (0, 1), in order; returns how many values. kept has room
// for 2·n + 16 values (the vector path stores whole registers).
Index compact_pairs(const double* v1, const double* v2, const double* factor, const double* s, Index n, Scalar* kept) {
  Index count = 0;
  Index j = 0;
#ifdef FEATURELAB_NOISE_COMPRESS
  // Lane i of the 16 outputs takes candidate i/2's first (even i) or second (odd i) value.
  const __m512i interleave = _mm512_set_epi32(15, 7, 14, 6, 13, 5, 12, 4, 11, 3, 10, 2, 9, 1, 8, 0);
  const __m512d zero = _mm512_setzero_pd(), one = _mm512_set1_pd(1.0);
  for (; j + 8 <= n; j += 8) {
    const __m512d f = _mm512_loadu_pd(factor + j), sj = _mm512_loadu_pd(s + j);
    const __m256 a = _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_loadu_pd(v1 + j), f));
    const __m256 b = _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_loadu_pd(v2 + j), f));
    const __m512 pairs = _mm512_permutexvar_ps(interleave, _mm512_insertf32x8(_mm512_castps256_ps512(a), b, 1));
    const unsigned keep8 = _mm512_cmp_pd_mask(sj, zero, _CMP_GT_OQ) & _mm512_cmp_pd_mask(sj, one, _CMP_LT_OQ);
    unsigned keep16 = 0;  // each candidate's bit twice: its pair
    for (int bit = 0; bit < 8; ++bit) keep16 |= ((keep8 >> bit) & 1u) * (3u << (2 * bit));
    _mm512_storeu_ps(kept + count, _mm512_maskz_compress_ps(static_cast<__mmask16>(keep16), pairs));
    count += 2 * __builtin_popcount(keep8);
  }
#endif
  for (; j < n; ++j) {  // written without a branch: every pair is stored at `count`, which moves on when it is kept
    kept[count] = static_cast<Scalar>(v1[j] * factor[j]);
    kept[count + 1] = static_cast<Scalar>(v2[j] * factor[j]);
    count += (s[j] > 0.0 && s[j] < 1.0) ? 2 : 0;
  }
  return count;
}

}  // namespace

void fill_gaussian_noise(Mat& out, double stddev, std::uint64_t key) {
  Scalar* x = out.data();
  const Index size = out.size();
  Eigen::ArrayXd v1(kCandidates), v2(kCandidates), s(kCandidates), factor(kCandidates);
  std::vector<Scalar> kept(static_cast<std::size_t>(2 * kCandidates + 16));
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
    const Index count = compact_pairs(v1.data(), v2.data(), factor.data(), s.data(), kCandidates, kept.data());
    const Index take = std::min(count, size - filled);
    std::copy(kept.begin(), kept.begin() + take, x + filled);
    filled += take;
  }
}

}  // namespace featurelab::contrastive_decoupling_pack

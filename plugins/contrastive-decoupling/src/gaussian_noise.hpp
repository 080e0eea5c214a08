// The dense noise ξ ~ N(0, σ² I) of the sparse-coding distribution (Wen & Li Def. 2.1), the bulk of its sampling:
// 17 million draws a step at the augmentation sweep's largest d1 (2048 × 8448 rows). Drawn one at a time through
// the engine and Boost's ziggurat they were 40 % of that training step; here in SIMD blocks, by Marsaglia's polar
// method on uniforms from a counter-based hash (splitmix64's finaliser of key + counter), so the draws of a call are
// one 64-bit key from the run's engine and the values a function of it alone: the same bits on any number of
// threads.
#pragma once

#include <featurelab/types.hpp>

#include <cstdint>

namespace featurelab::contrastive_decoupling_pack {

// out (its whole storage) ← N(0, stddev²) draws determined by key.
void fill_gaussian_noise(Mat& out, double stddev, std::uint64_t key);

}  // namespace featurelab::contrastive_decoupling_pack

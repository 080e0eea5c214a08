// Test inputs shared by the core's product tests: a matrix of N(0, 1) entries from a seed.
#pragma once

#include <featurelab/rng.hpp>
#include <featurelab/types.hpp>

#include <cstdint>

namespace featurelab::testing_inputs {

inline Mat random_matrix(Index rows, Index cols, std::uint64_t seed) {
  Mat m(rows, cols);
  Rng rng(seed);
  rng.fill_normal(m, 1.0);
  return m;
}

}  // namespace featurelab::testing_inputs

// The built midpoint-mixup plugin (and std, for losses), loaded once for the pack's tests.
#pragma once

#include <featurelab/testing.hpp>

#include <map>
#include <string>

namespace mm_test {

using Overrides = std::map<std::string, featurelab::Value>;

inline featurelab::testing::Harness& pack() { return featurelab::testing::pack(MIDPOINT_MIXUP_PLUGIN); }

inline featurelab::testing::Harness& std_pack() { return featurelab::testing::pack(FEATURELAB_STD_PLUGIN); }

// Patch data of P patches of dimension d and k classes (the shape patch-two-layer reads).
inline featurelab::DataSpec patch_spec(featurelab::Index P, featurelab::Index d, int k) {
  featurelab::DataSpec s;
  s.dim = P * d;
  s.classes = k;
  s.shape.dims = {P, d};
  return s;
}

}  // namespace mm_test

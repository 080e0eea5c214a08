// The built midpoint-mixup plugin (and std, for losses), loaded once for the pack's tests.
#pragma once

#include <featurelab/testing.hpp>

#include <map>
#include <string>

namespace mm_test {

using Overrides = std::map<std::string, featurelab::Value>;

inline featurelab::testing::Harness& pack() {
  static featurelab::testing::Harness h(MIDPOINT_MIXUP_PLUGIN);
  return h;
}

inline featurelab::testing::Harness& std_pack() {
  static featurelab::testing::Harness h(FEATURELAB_STD_PLUGIN);
  return h;
}

}  // namespace mm_test

// The built midpoint-mixup plugin (and std, for losses), loaded once for the pack's tests.
#pragma once

#include <featurelab/testing.hpp>

#include <map>
#include <string>

namespace mm_test {

using Overrides = std::map<std::string, featurelab::Value>;

inline featurelab::testing::Harness& pack() { return featurelab::testing::pack(MIDPOINT_MIXUP_PLUGIN); }

inline featurelab::testing::Harness& std_pack() { return featurelab::testing::pack(FEATURELAB_STD_PLUGIN); }

}  // namespace mm_test

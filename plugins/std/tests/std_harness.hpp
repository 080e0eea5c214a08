// The built std plugin, loaded once for all of the pack's tests.
#pragma once

#include <featurelab/testing.hpp>

#include <map>
#include <string>

namespace std_test {

using Overrides = std::map<std::string, featurelab::Value>;

inline featurelab::testing::Harness& harness() { return featurelab::testing::pack(FEATURELAB_STD_PLUGIN); }

}  // namespace std_test

// Where the core tests find built plugins (CMake passes both paths): the fixture plugins of
// tests/fixtures, and the in-tree packs.
#pragma once

#include <filesystem>

namespace featurelab::test {

inline const std::filesystem::path kFixtures = FEATURELAB_FIXTURE_DIR;
inline const std::filesystem::path kPlugins = FEATURELAB_PLUGIN_BUILD_DIR;

}  // namespace featurelab::test

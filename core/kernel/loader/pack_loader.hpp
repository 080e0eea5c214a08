// Loads one pack library with Boost.DLL and checks it before calling into it.
//
// Checks, in order, each with a precise refusal: the file exists and is safe from other users
// (plugin_trust.hpp: loading a plugin runs its code); its bytes are the expected build, when one is
// expected (a run pins each pack's SHA-256 before its first job); it is a loadable shared library
// (loaded through the descriptor that was checked and hashed, plugin_file.hpp); it exports the
// `featurelab_pack` entry point; its ABI version equals the core's; its build fingerprint equals
// the core's (the differing field is named); its registration runs without throwing (a name
// registered twice is refused there); every component implements its kind's interface at the
// version the core calls (interface_id: both ids are named).
#pragma once

#include <featurelab/pack.hpp>

#include <featurelab/core/load_failure.hpp>

#include <boost/dll/shared_library.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace featurelab {

// A loaded pack. Every component object made from it holds a shared_ptr to it, so the library
// cannot be unloaded while one of its objects lives.
struct LoadedPack {
  std::filesystem::path file;
  std::string name;
  std::string version;
  std::string fingerprint;
  std::string sha256;  // of the bytes loaded
  boost::dll::shared_library library;
  std::vector<ComponentInfo> components;
};

struct LoadResult {
  std::shared_ptr<LoadedPack> pack;
  LoadFailure failure = LoadFailure::None;
  std::string message;  // "<file>: <what>; <fix>"
  std::string sha256;   // of the file, once it was opened and hashed (also when its build was not the one expected)
  explicit operator bool() const { return pack != nullptr; }
};

// With `expected_sha256`, a file with other bytes is refused (Changed) before it is loaded.
LoadResult load_pack(const std::filesystem::path& file, const std::string& expected_sha256 = "");

}  // namespace featurelab

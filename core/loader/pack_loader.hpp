// Loads one pack library with Boost.DLL and checks it before calling into it.
//
// Checks, in order, each with a precise refusal: the file exists and is not writable by other
// users (loading a plugin runs its code); it is a loadable shared library; it exports the
// `featurelab_pack` entry point; its ABI version equals the core's; its build fingerprint equals
// the core's (the differing field is named); its registration runs without throwing (a name
// registered twice is refused there); every component implements its kind's interface at the
// version the core calls (interface_id: both ids are named).
#pragma once

#include <featurelab/pack.hpp>

#include <boost/dll/shared_library.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace featurelab {

enum class LoadFailure {
  None,
  NotFound,
  UnsafePermissions,
  NotSharedLibrary,
  MissingEntryPoint,
  WrongAbi,
  FingerprintMismatch,
  RegistrationFailed,
  InterfaceMismatch,
};

const char* to_string(LoadFailure failure);

// A loaded pack. Every component object made from it holds a shared_ptr to it, so the library
// cannot be unloaded while one of its objects lives.
struct LoadedPack {
  std::filesystem::path file;
  std::string name;
  std::string version;
  std::string fingerprint;
  boost::dll::shared_library library;
  std::vector<ComponentInfo> components;
};

struct LoadResult {
  std::shared_ptr<LoadedPack> pack;
  LoadFailure failure = LoadFailure::None;
  std::string message;  // "<file>: <what>; <fix>"
  explicit operator bool() const { return pack != nullptr; }
};

LoadResult load_pack(const std::filesystem::path& file);

// Refuses files and directories that other users can write (like ssh with loose key modes).
std::string unsafe_permissions(const std::filesystem::path& file);

}  // namespace featurelab

// The facade for hosts over plugin libraries themselves (`featurelab plugins doctor` and `manifest`): whether each
// library on the search path loads, and its sidecar manifest written.
#pragma once

#include <featurelab/core/catalog.hpp>

#include <cstddef>
#include <filesystem>
#include <string>

namespace featurelab {

// One plugin library tried: loaded (ok) or refused, with the reason and its fix.
struct LibraryCheck {
  std::filesystem::path library;
  bool ok = false;
  std::string pack, version;        // when ok
  std::size_t components = 0;       // when ok
  std::string refusal;              // when not ok: "<file>: <what>; <fix>"
  LoadFailure failure = LoadFailure::None;
  std::string slow;                 // when ok but built without optimisation: the warning, else empty
};

// Loads `library` (one of catalog.libraries()) unless the catalog refused it already.
LibraryCheck check_library(const Catalog& catalog, const std::filesystem::path& library);

// Loads the plugin library (running its code) and writes its sidecar manifest beside it; returns the manifest's path
// and the number of components. Throws PluginError when it does not load.
struct WrittenManifest {
  std::filesystem::path file;
  std::size_t components = 0;
};
WrittenManifest write_library_manifest(const std::filesystem::path& library);

}  // namespace featurelab

// featurelab/core/plugins.hpp over the loader.
#include <featurelab/core/plugins.hpp>

#include <featurelab/core/manifest.hpp>
#include "kernel/loader/pack_loader.hpp"

#include <featurelab/version.hpp>

namespace featurelab {

LibraryCheck check_library(const Catalog& catalog, const std::filesystem::path& library) {
  LibraryCheck check;
  check.library = library;
  if (const PackRecord* record = catalog.refused(library)) {
    check.refusal = record->refusal;
    check.failure = record->refusal_kind;
    return check;
  }
  const LoadResult result = load_pack(library);
  if (!result) {
    check.refusal = result.message;
    check.failure = result.failure;
    return check;
  }
  check.ok = true;
  check.pack = result.pack->name;
  check.version = result.pack->version;
  check.components = result.pack->components.size();
  check.slow = unoptimized_plugin_warning(result.pack->fingerprint, library.string());
  return check;
}

WrittenManifest write_library_manifest(const std::filesystem::path& library) {
  const LoadResult result = load_pack(library);
  if (!result) throw PluginError(result.message);
  WrittenManifest written{manifest_path_for(library), result.pack->components.size()};
  write_manifest(manifest_of(*result.pack), written.file);
  return written;
}

}  // namespace featurelab

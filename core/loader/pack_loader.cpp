// Boost.DLL loading with the checks listed in pack_loader.hpp.
#include "loader/pack_loader.hpp"

#include "engine/crash_site.hpp"
#include "loader/interface_ids.hpp"
#include "loader/plugin_file.hpp"

#include <featurelab/version.hpp>


namespace featurelab {

const char* to_string(LoadFailure failure) {
  switch (failure) {
    case LoadFailure::None: return "loaded";
    case LoadFailure::NotFound: return "not found";
    case LoadFailure::UnsafePermissions: return "unsafe permissions";
    case LoadFailure::NotSharedLibrary: return "not a shared library";
    case LoadFailure::MissingEntryPoint: return "missing entry point";
    case LoadFailure::WrongAbi: return "wrong ABI";
    case LoadFailure::FingerprintMismatch: return "fingerprint mismatch";
    case LoadFailure::RegistrationFailed: return "registration failed";
    case LoadFailure::InterfaceMismatch: return "interface mismatch";
    case LoadFailure::Changed: return "changed";
    case LoadFailure::AmbiguousPack: return "ambiguous pack";
  }
  return "?";
}

namespace {

LoadResult refuse(const std::filesystem::path& file, LoadFailure failure, const std::string& what) {
  LoadResult result;
  result.failure = failure;
  result.message = file.string() + ": " + what;
  return result;
}

}  // namespace

LoadResult load_pack(const std::filesystem::path& file, const std::string& expected_sha256) {
  PluginFile opened(file);
  if (opened.failure() != LoadFailure::None) return refuse(file, opened.failure(), opened.problem());
  if (!expected_sha256.empty() && opened.sha256() != expected_sha256) {
    LoadResult changed = refuse(file, LoadFailure::Changed, "its sha256 is " + opened.sha256() + ", expected " +
                                                                expected_sha256 + "; it was rebuilt or replaced");
    changed.sha256 = opened.sha256();
    return changed;
  }
  auto pack = std::make_shared<LoadedPack>();
  pack->file = file;
  pack->sha256 = opened.sha256();
  try {
    pack->library.load(opened.loadable_path(), boost::dll::load_mode::rtld_lazy | boost::dll::load_mode::rtld_local);
    opened.keep_open();
  } catch (const std::exception& e) {
    // The loader's message names /proc/self/fd/N; the user knows the file.
    std::string why = e.what();
    const std::string loaded_as = opened.loadable_path().string();
    for (auto at = why.find(loaded_as); at != std::string::npos; at = why.find(loaded_as, at + file.string().size())) {
      why.replace(at, loaded_as.size(), file.string());
    }
    return refuse(file, LoadFailure::NotSharedLibrary,
                  "not a loadable shared library (" + why +
                      "); plugins are built with featurelab_add_plugin() from the featurelab CMake package");
  }
  if (!pack->library.has("featurelab_pack")) {
    return refuse(file, LoadFailure::MissingEntryPoint,
                  "missing entry point 'featurelab_pack': not a featurelab plugin; declare the pack "
                  "with FEATURELAB_PACK(name, version) from <featurelab/pack.hpp>");
  }
  const PackHeader* header = nullptr;
  try {
    header = pack->library.get_alias<PackEntry>("featurelab_pack")();
  } catch (const std::exception& e) {
    return refuse(file, LoadFailure::MissingEntryPoint,
                  std::string("entry point 'featurelab_pack' unusable: ") + e.what());
  }
  if (header == nullptr) {
    return refuse(file, LoadFailure::MissingEntryPoint, "entry point 'featurelab_pack' returned null");
  }
  if (header->abi_version != FEATURELAB_ABI_VERSION) {
    return refuse(file, LoadFailure::WrongAbi,
                  "ABI " + std::to_string(header->abi_version) + ", core expects " +
                      std::to_string(FEATURELAB_ABI_VERSION) +
                      "; rebuild the plugin against this featurelab's SDK");
  }
  pack->name = header->pack_name ? header->pack_name : "";
  pack->version = header->pack_version ? header->pack_version : "";
  pack->fingerprint = header->fingerprint ? header->fingerprint : "";
  const std::string core = build_fingerprint();
  if (pack->fingerprint != core) {
    return refuse(file, LoadFailure::FingerprintMismatch,
                  "pack '" + pack->name + "': build fingerprint differs (" +
                      fingerprint_difference(pack->fingerprint, core) +
                      "); rebuild the plugin with the compiler and flags of this featurelab "
                      "(find_package(featurelab) sets them)");
  }
  try {
    PackBuilder builder;
    header->register_components(builder);
    pack->components = builder.components();
  } catch (const std::exception& e) {
    return refuse(file, LoadFailure::RegistrationFailed,
                  "pack '" + pack->name + "': registering its components threw: " + e.what());
  } catch (...) {
    return refuse(file, LoadFailure::RegistrationFailed,
                  "pack '" + pack->name + "': registering its components threw a non-standard exception");
  }
  std::string mismatches;
  for (const auto& c : pack->components) {
    if (auto why = interface_mismatch(c.kind, c.name, c.interface_id); !why.empty()) {
      mismatches += (mismatches.empty() ? "" : "; ") + why;
    }
  }
  if (!mismatches.empty()) {
    return refuse(file, LoadFailure::InterfaceMismatch,
                  "pack '" + pack->name + "': " + mismatches + "; rebuild the plugin against this featurelab's SDK");
  }
  note_pack_library(header, file.string());  // so a crash inside it is reported with its file
  LoadResult result;
  result.sha256 = pack->sha256;
  result.pack = std::move(pack);
  return result;
}

}  // namespace featurelab

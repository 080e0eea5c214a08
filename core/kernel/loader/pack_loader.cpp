// Boost.DLL loading with the checks listed in pack_loader.hpp.
#include "kernel/loader/pack_loader.hpp"

#include "kernel/loader/loaded_libraries.hpp"
#include "kernel/loader/interface_ids.hpp"
#include "kernel/loader/plugin_file.hpp"

#include <featurelab/version.hpp>

#include <cstdlib>
#include <cxxabi.h>
#include <memory>

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

// For the dynamic linker's "undefined symbol: _ZN…": the symbol demangled and what most likely left it undefined, a
// plugin compiled for the other scalar type, or a source file or library missing from its link; "" for other
// failures.
std::string undefined_symbol_hint(const std::string& loader_message) {
  static const std::string kMarker = "undefined symbol: ";
  const auto at = loader_message.find(kMarker);
  if (at == std::string::npos) return "";
  const auto begin = at + kMarker.size();
  const std::string mangled = loader_message.substr(begin, loader_message.find_first_of(" )\n", begin) - begin);
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                                         std::free);
  const std::string name = status == 0 && demangled ? demangled.get() : mangled;
  const std::string other = kDouble ? "float" : "double";
  if (name.find("Eigen::Matrix<" + other) != std::string::npos) {
    return "; the missing function, " + name + ", takes matrices of " + other + ": the plugin was compiled for " +
           other + " as the scalar type, and this featurelab uses " + kScalarName +
           " (do not define FEATURELAB_SCALAR_DOUBLE yourself; link featurelab::sdk, which sets the SDK's)";
  }
  return "; the missing function is " + name + ": a source file left out of featurelab_add_plugin(... SOURCES ...), "
         "or a library not linked";
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
    // Every symbol bound now (RTLD_NOW): a function the library lacks (a source file left out of its build, a
    // plugin compiled for the other scalar type) is refused here with its name, where lazy binding let the first
    // call end the whole process with the dynamic linker's "symbol lookup error".
    pack->library.load(opened.loadable_path(), boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
    opened.keep_open();
  } catch (const std::exception& e) {
    // The loader's message names /proc/self/fd/N; the user knows the file.
    std::string why = e.what();
    const std::string loaded_as = opened.loadable_path().string();
    for (auto at = why.find(loaded_as); at != std::string::npos; at = why.find(loaded_as, at + file.string().size())) {
      why.replace(at, loaded_as.size(), file.string());
    }
    return refuse(file, LoadFailure::NotSharedLibrary,
                  "not a loadable shared library (" + why + ")" + undefined_symbol_hint(why) +
                      "; plugins are built with featurelab_add_plugin() from the featurelab CMake package");
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
  if (const std::string difference = fingerprint_difference(pack->fingerprint, build_fingerprint()); !difference.empty()) {
    return refuse(file, LoadFailure::FingerprintMismatch,
                  "pack '" + pack->name + "': build fingerprint differs (" + difference +
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

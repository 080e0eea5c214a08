// The catalog of available components, built from the sidecar manifests of every pack found on
// the plugin search path. Packs are loaded lazily, the first time one of their components is made.
#pragma once

#include "errors.hpp"
#include "loader/manifest.hpp"
#include "loader/pack_loader.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace featurelab {

struct PackRecord {
  PackManifest manifest;
  std::shared_ptr<LoadedPack> loaded;  // set once loaded
};

struct ComponentRef {
  const ComponentManifest* component = nullptr;
  const PackRecord* pack = nullptr;
  std::string qualified() const { return pack->manifest.name + ":" + component->name; }
};

class Catalog {
 public:
  // --plugin-path entries, then FEATURELAB_PLUGIN_PATH, then the install's plugin directory.
  // Empty entries are dropped: the current directory is never searched implicitly.
  static std::vector<std::filesystem::path> search_path(const std::vector<std::string>& cli_paths);
  static std::filesystem::path install_plugin_dir();

  void discover(const std::vector<std::filesystem::path>& dirs);

  const std::vector<std::filesystem::path>& dirs() const { return dirs_; }
  const std::vector<std::unique_ptr<PackRecord>>& packs() const { return packs_; }
  // Libraries without a usable manifest, stale manifests, duplicate packs.
  const std::vector<std::string>& problems() const { return problems_; }
  // Shared libraries found on the path (for `plugins doctor`).
  const std::vector<std::filesystem::path>& libraries() const { return libraries_; }

  // "two-layer" or "std:two-layer". Throws PluginError with a did-you-mean or the ambiguity; a name
  // found nowhere also names the directories searched (search_path_note()).
  ComponentRef find(Kind kind, const std::string& name) const;
  // "searched, in order: DIR, DIR (...)" with how to add a directory, for "not found" messages.
  std::string search_path_note() const;
  // All components of any kind with this (possibly qualified) name.
  std::vector<ComponentRef> find_any(const std::string& name) const;
  std::vector<std::string> names(Kind kind) const;

  // Loads the pack (once) and checks it against its manifest. Throws PluginError.
  std::shared_ptr<LoadedPack> load(const PackRecord& pack);

  // The sample dimension a distribution declares for these parameters (loading its pack), or a
  // negative number when it declares none. Throws PluginError.
  double data_dimension(const ComponentRef& ref, const Params& params) const;

  // Creates a component; the returned object keeps its library loaded.
  template <class T>
  std::shared_ptr<T> make(const ComponentRef& ref, const Params& params, Context& context) {
    auto [raw, pack] = create(ref, params, context);
    T* typed = static_cast<T*>(raw);  // the kind was checked by create()
    return std::shared_ptr<T>(typed, [pack = std::move(pack)](T* p) { delete p; });
  }

 private:
  static const ComponentInfo& registered(const LoadedPack& pack, const ComponentRef& ref);
  std::pair<Component*, std::shared_ptr<LoadedPack>> create(const ComponentRef& ref,
                                                             const Params& params, Context& context);

  std::vector<std::filesystem::path> dirs_;
  std::vector<std::unique_ptr<PackRecord>> packs_;
  std::vector<std::string> problems_;
  std::vector<std::filesystem::path> libraries_;
};

}  // namespace featurelab
